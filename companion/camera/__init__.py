"""The camera over the table (issue 34): a printed board the camera can find, and the
position read from a picture of it.

* :mod:`.board`: the printable board of a game, its squares at known places in
  millimetres between four ArUco markers (``cv2.aruco``), as a picture, an SVG and a PDF;
* :mod:`.sources`: the real cameras' frames, a USB webcam (``cv2.VideoCapture`` on
  V4L2, or a video file) and a Pi camera module (picamera2, imported when opened);
* :mod:`.still`: a frame read only when the board has been still for a moment;
* :mod:`.saved`: frames kept on the box, only with ``camera.save_frames`` on;
* :mod:`.fake`: a fake camera, a seeded photo of the printed board with pieces on it
  (perspective, light, shadows, blur, noise, JPEG, a hand over the board), and a
  still camera's consecutive frames of one scene with a hand coming and going;
* :mod:`.read`: markers -> homography -> top view -> each square empty or a player's
  piece (CIELAB against the empty board); a picture with something over the board
  is refused; :func:`~.read.find_move` finds the legal move a reading shows;
* :mod:`.calibration`: a board of the player's own, without markers, found by its four
  corners marked once on a still of the empty board; :mod:`.orient`: the turn of
  corners given from another corner, found from a picture of the first position.

The room imports the rules and the board pictures (``companion.ui.games.boards``),
nothing above them; OpenCV and NumPy come from the ``camera`` extra
(``pip install 'board-companion[camera]'``). All four games' boards are read (each
laid on a grid; a cell of 2 x 2 squares read at its centre).
docs/camera.md says what is built and what is not.
"""

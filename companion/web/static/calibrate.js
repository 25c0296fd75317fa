// The marking page of `companion camera calibrate GAME --page` (companion/web/marking.py):
// each click on the still marks the next corner, in the still's own pixels, and fills
// the form's "corners" field (X,Y X,Y X,Y X,Y); "Undo" takes the last one back.
"use strict";
(function () {
  const box = document.getElementById("still");
  if (!box) return;
  const img = box.querySelector("img");
  const field = document.getElementById("corners");
  const next = document.getElementById("next");
  const save = document.getElementById("save");
  const names = next.dataset.names.split("|");
  const corners = [];
  const marks = [];

  function show() {
    field.value = corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
    save.disabled = corners.length !== 4;
    next.textContent = corners.length < 4
      ? next.dataset.ask.replace("{corner}", names[corners.length]) : next.dataset.done;
    marks.forEach((mark, i) => {
      const [x, y] = corners[i];
      mark.style.left = `${(x * img.clientWidth) / img.naturalWidth}px`;
      mark.style.top = `${(y * img.clientHeight) / img.naturalHeight}px`;
    });
  }

  img.addEventListener("click", (event) => {
    if (corners.length >= 4 || !img.naturalWidth) return;
    const rect = img.getBoundingClientRect();
    const x = ((event.clientX - rect.left) * img.naturalWidth) / rect.width;
    const y = ((event.clientY - rect.top) * img.naturalHeight) / rect.height;
    corners.push([x, y]);
    const mark = document.createElement("span");
    mark.className = "corner-mark";
    mark.textContent = String(corners.length);
    box.appendChild(mark);
    marks.push(mark);
    show();
  });
  document.getElementById("undo").addEventListener("click", () => {
    corners.pop();
    const mark = marks.pop();
    if (mark) mark.remove();
    show();
  });
  window.addEventListener("resize", show);
  show();
})();

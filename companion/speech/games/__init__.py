"""Each game's voice (:class:`companion.speech.cues.Voice`): its sentences for the ear in
its own words, named by its presenter (``Presenter.voice``) and imported on first use."""

"""A play control over the samples of a trajectory, driving markers in a live figure."""

from __future__ import annotations

import numbers
from collections.abc import Callable

import ipywidgets as w

from companion.widgets.lifecycle import close_tree, quietly


class PlayControl:
    """``ipywidgets.Play`` linked to a slider; each frame calls ``callback(sample_index)``
    (0..n_samples−1: to move markers), over at most ``max_frames`` frames (the samples are
    strided beyond), so that playing stays light."""

    def __init__(self, n_samples: int, callback: Callable[[int], None], *, max_frames: int = 200):
        if max_frames < 2:
            raise ValueError(f"max_frames must be at least 2, got {max_frames}")
        self.callback = callback
        self.max_frames = max_frames
        self._play = w.Play(min=0, max=1, step=1, interval=60, description="play")
        self._slider = w.IntSlider(min=0, max=1, description="frame", readout=False)
        self._link = w.jslink((self._play, "value"), (self._slider, "value"))
        self._quiet = False
        self._slider.observe(self._on_frame, names="value")
        self.widget = w.HBox([self._play, self._slider])
        self.set_samples(n_samples)

    @property
    def n_frames(self) -> int:
        return self._slider.max + 1

    def set_samples(self, n_samples: int) -> None:
        """Adapt to a new trajectory with ``n_samples`` samples (the frame resets to 0)."""
        if n_samples < 1:
            raise ValueError(f"a trajectory needs at least one sample, got {n_samples}")
        self.n_samples = int(n_samples)
        frames = max(min(self.n_samples, self.max_frames), 1)
        with quietly(self):  # the new trajectory's first sample is drawn by whoever asked
            self._slider.value = 0
            self._slider.max = frames - 1
            self._play.max = frames - 1

    def _on_frame(self, change: dict) -> None:
        if not self._quiet:
            self.show(change["new"])

    @property
    def playing(self) -> bool:
        """Whether the play button runs (the browser says so): a frame reached by playing,
        not by dragging the frame slider nor by a scene's seek."""
        return bool(self._play.playing)

    def close(self) -> None:
        """Free the widgets (the link between play button and slider is one of them)."""
        self._link.close()
        close_tree(self.widget)

    def sample_index(self, frame: int) -> int:
        """The trajectory sample shown at ``frame``."""
        if self.n_frames == 1:
            return 0
        return round(frame * (self.n_samples - 1) / (self.n_frames - 1))

    def go_to_sample(self, sample: int) -> None:
        """Move the slider to the frame nearest trajectory sample ``sample`` (which shows it)."""
        if self.n_samples > 1:
            self._slider.value = round(sample * (self.n_frames - 1) / (self.n_samples - 1))

    def on_sample(self, callback: Callable[[int], None]) -> None:
        """Also call ``callback(sample_index)`` whenever the frame changes."""
        self._slider.observe(lambda ch: callback(self.sample_index(int(ch["new"]))),
                             names="value")

    def show(self, frame: int) -> None:
        """Show ``frame`` now (what the play button does at each tick); ``ValueError`` unless
        it is an integer from 0 to ``n_frames`` − 1."""
        if (isinstance(frame, bool) or not isinstance(frame, numbers.Integral)
                or not 0 <= frame < self.n_frames):
            raise ValueError(f"frame must be an integer from 0 to {self.n_frames - 1} (the "
                             f"{self.n_frames} frames over {self.n_samples} samples), got "
                             f"{frame!r}")
        self.callback(self.sample_index(int(frame)))

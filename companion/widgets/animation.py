"""The animation machinery every explorer view shares: a play control over the trajectory's
samples, one time cursor (a vertical line on each time axis) and the per-sample drawing a view
adds.  A view subclasses :class:`AnimatedView` and writes :meth:`~AnimatedView.build`,
:meth:`~AnimatedView.draw_motion` and :meth:`~AnimatedView.draw_sample`; a scene follows the
cursor through the play control (:meth:`~companion.widgets.play.PlayControl.on_sample`).
"""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from companion.numerics import Trajectory
from companion.widgets.explorer import View
from companion.widgets.frames import MATPLOTLIB_LOCK
from companion.widgets.play import PlayControl

#: Colour and width of the time cursor on every time axis.
CURSOR_STYLE = {"color": "0.5", "lw": 0.8}


class AnimatedView(View):
    """A view with a motion to play and one time cursor.

    Attributes
    ----------
    play
        The :class:`~companion.widgets.play.PlayControl` under the figure.
    time_index, trajectory
        The sample the figure, the play control and the cursors show; the trajectory drawn.
    """

    #: Frames the play control runs through at most (the samples are strided beyond).
    max_frames = 200

    def setup(self, fig: Figure, trajectory: Trajectory) -> None:
        self.fig = fig
        self.cursors: list[Line2D] = []
        self.time_index = 0
        self.trajectory = trajectory
        self.build(fig, trajectory)
        self.play = PlayControl(len(trajectory.t), self.show_sample, max_frames=self.max_frames)
        self.refresh(trajectory)

    # ------------------------------------------------------------ for subclasses
    def build(self, fig: Figure, trajectory: Trajectory) -> None:
        """Create the axes and artists (once); call :meth:`add_cursor` on time axes."""
        raise NotImplementedError

    def draw_motion(self, trajectory: Trajectory) -> None:
        """Move the artists that show the whole motion (series against time, paths)."""
        raise NotImplementedError

    def draw_sample(self, trajectory: Trajectory, i: int) -> None:
        """Move the artists that show sample ``i`` (markers, the body); default: none."""

    def animated_samples(self, trajectory: Trajectory) -> int:
        """How many samples the play control runs through (default: all of them)."""
        return len(trajectory.t)

    # ------------------------------------------------------------ shared machinery
    def add_cursor(self, ax: Axes) -> Line2D:
        """A vertical time cursor on ``ax``, moved by :meth:`show_sample`."""
        cursor = ax.axvline(0.0, **CURSOR_STYLE)
        self.cursors.append(cursor)
        return cursor

    def refresh(self, trajectory: Trajectory) -> None:
        self.trajectory = trajectory
        self.draw_motion(trajectory)
        self.play.set_samples(self.animated_samples(trajectory))
        self.show_sample(0, draw=False)

    def show_sample(self, i: int, draw: bool = True) -> None:
        """Move the time cursor to sample ``i``: the cursors and the view's markers; then ask
        for a redraw (unless ``draw`` is false)."""
        i = int(i)
        with MATPLOTLIB_LOCK:  # the play control's messages may run on another thread
            self.time_index = i
            t = self.trajectory.t[i]
            for cursor in self.cursors:
                cursor.set_xdata([t, t])
            self.draw_sample(self.trajectory, i)
        if draw:
            self.fig.canvas.draw_idle()

    def extra_widgets(self) -> list:
        return [self.play.widget]

    def close(self) -> None:
        self.play.close()

"""The scene widget: keyframes sent once, played by the browser at display rate.

:class:`Scene` is an anywidget whose front end (scene.js, a plain ES module shipped in the
package: nothing is fetched at run time) interpolates between keyframes at each
``requestAnimationFrame``, with play/pause, speed ¼×–4×, loop, a scrubber in seconds, the
keyboard (space, arrows, Home/End), full screen and mouse orbit.  The kernel is asked for
nothing while it plays; it only hears the time (≤ once a second while playing, ≤ 10 times while
the reader scrubs, and always where either stopped) so that an explorer's time cursor can
follow.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from companion.numerics import Trajectory
from companion.scene import keyframes as kf
from companion.scene.filmstrip import filmstrip_png
from companion.scene.items import Declaration
from companion.widgets import style
from companion.widgets.lifecycle import close_when_rerun, quietly

_HERE = Path(__file__).parent
_ESM_SOURCE = (_HERE / "scene.js").read_text(encoding="utf-8")
_CSS_SOURCE = (_HERE / "scene.css").read_text(encoding="utf-8")

#: CSS class of every scene's outer element: browser tests and benchmarks find scenes by it.
SCENE_CLASS = "companion-scene"

Declare = Callable[[Trajectory], Declaration]

#: The caption while a prediction is open (the same text is in scene.js).
PREDICT_CAPTION = ("Predict first, then press play: what happens is described here once the "
                   "motion has played.")


class Scene(anywidget.AnyWidget):
    """A 2D/3D scene of a motion, declared by ``declare(trajectory)``.

    Parameters
    ----------
    declare
        The slice's scene function: a trajectory → :class:`~companion.scene.items.Declaration`.
    trajectory
        The first motion to show.
    autoplay
        Start playing when shown.  Off by default: while a scene plays, the kernel hears its
        time once a second to move the explorer's cursor, so a notebook that plays by
        itself never leaves its kernel idle.
    """

    _esm = _ESM_SOURCE
    _css = _CSS_SOURCE
    spec = traitlets.Dict().tag(sync=True)
    frames = traitlets.Bytes().tag(sync=True)
    #: The time shown, in seconds: set by the browser while playing (throttled) and by the
    #: kernel to move the scene (an explorer's scrubber).
    time = traitlets.Float(0.0).tag(sync=True)
    #: The furthest time reached by playing, set by the browser (a seek, the scrubber and
    #: Home/End do not count): a prediction's outcome is revealed once the motion has played.
    played = traitlets.Float(-1e300).tag(sync=True)
    autoplay = traitlets.Bool(False).tag(sync=True)
    #: Playback speed (one of the speed menu's, scene.js); an explorer's preset sets it.
    speed = traitlets.Float(1.0).tag(sync=True)
    loop = traitlets.Bool(True).tag(sync=True)
    lecture = traitlets.Bool(False).tag(sync=True)
    #: A predict preset's question is open: the caption keeps the outcome to itself.
    predict = traitlets.Bool(False).tag(sync=True)

    def __init__(self, declare: Declare, trajectory: Trajectory, **kwargs: Any):
        super().__init__(lecture=style.is_lecture(), **kwargs)
        self.declare = declare
        self.keyframes: kf.Keyframes | None = None
        self.trajectory: Trajectory | None = None
        self._quiet = False  # set while it moves itself: the explorer does not follow
        #: Shown inside its explorer (lecture mode): displaying it again shows nothing.
        self.beside = False
        self.show(trajectory)
        close_when_rerun(self.close)  # the cell that showed it runs again: it goes

    def show(self, trajectory: Trajectory) -> None:
        """Replace the motion: new keyframes in one message; playback restarts on them."""
        declaration = self.declare(trajectory)
        frames = kf.build(declaration, trajectory.t)
        self.trajectory, self.keyframes = trajectory, frames
        with self.hold_sync(), quietly(self):
            self.spec = frames.spec
            self.frames = frames.data
            self.time = float(trajectory.t[0])
            self.played = -1e300  # a new motion has not been played

    @property
    def description(self) -> str:
        """The motion in plain words."""
        return self.keyframes.spec["description"] if self.keyframes else ""

    @property
    def caption(self) -> str:
        """The caption shown under the scene: the description, or while a prediction is
        open (``predict``) the invitation to play (scene.js writes the same)."""
        return PREDICT_CAPTION if self.predict else self.description

    def follow(self, explorer) -> Scene:
        """Couple to an :class:`~companion.widgets.Explorer`: its slider changes replace the
        motion, its time cursor follows playback and its play scrubber moves the scene."""
        explorer.on_update.append(self.show)
        explorer.on_update.append(lambda _: setattr(self, "speed", explorer.playback_speed))
        self.speed = explorer.playback_speed
        explorer.on_close.append(self.close)  # a scene of a closed explorer would mislead
        if self.lecture:  # one screen per idea: the scene beside the figure
            explorer.place_beside(self)
            self.beside = True
        self.predict = explorer.predicting
        explorer.on_predict.append(lambda on: setattr(self, "predict", on))
        self.observe(lambda change: self._quiet or explorer.played_to(change["new"]),
                     names="played")
        play = getattr(explorer.view, "play", None)
        if play is None:
            return self
        # One player per motion: the scene's; the explorer's cursor follows it (below).
        play.widget.layout.display = "none"

        def scene_moved(change: dict) -> None:
            if self._quiet or explorer.trajectory is None:
                return
            t = explorer.trajectory.t
            with quietly(self):
                play.go_to_sample(int(np.clip(np.searchsorted(t, change["new"]), 0, len(t) - 1)))

        def cursor_moved(sample: int) -> None:
            if not self._quiet and explorer.trajectory is not None:
                with quietly(self):
                    self.time = float(explorer.trajectory.t[sample])

        self.observe(scene_moved, names="time")
        play.on_sample(cursor_moved)
        return self

    def close(self) -> None:
        """Close the widget and let go of its motion and of the explorer it followed: IPython's
        output history (``_5``) keeps the scene a cell showed after the cell runs again."""
        super().close()
        self.unobserve_all()
        self.keyframes = self.trajectory = None
        self.frames = b""

    def standalone_html(self) -> str:
        """HTML that plays the scene by itself: the module, its style and the keyframes inline,
        so a page exported without widgets (nbconvert), opened from a file without a kernel
        or a network, still plays it.  The filmstrip stays underneath for pages without
        scripts."""
        module = base64.b64encode(_ESM_SOURCE.encode()).decode()
        state = json.dumps({"spec": self.spec, "autoplay": False, "loop": True,
                            "lecture": self.lecture, "time": self.spec_start,
                            "predict": self.predict})
        frames = base64.b64encode(self.frames).decode()
        element = f"{SCENE_CLASS}-{self.model_id}"
        return (f"<style>{_CSS_SOURCE}</style><div id=\"{element}\"></div>"
                f"<script type=\"module\">const src = new TextDecoder().decode("
                f"Uint8Array.from(atob(\"{module}\"), (c) => c.charCodeAt(0)));"
                "const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));"
                "const m = await import(url);"
                f"const bytes = Uint8Array.from(atob(\"{frames}\"), (c) => c.charCodeAt(0));"
                f"const el = document.getElementById(\"{element}\");"
                f"m.play(el, Object.assign({state}, {{frames: bytes}}));"
                "for (const still of el.parentElement.querySelectorAll('img, figcaption'))"
                " still.style.display = 'none';</script>")

    @property
    def spec_start(self) -> float:
        return float(self.trajectory.t[0]) if self.trajectory is not None else 0.0

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        if self.beside:  # already on screen, beside its explorer's figure
            return {"text/plain": ""}, {}
        shown = super()._repr_mimebundle_(**kwargs)
        data, metadata = shown if isinstance(shown, tuple) else (shown or {}, {})
        bundle = dict(data)
        alt = html.escape(self.caption, quote=True)
        # while a prediction is open, the start alone, drawn neutral (nothing of the outcome)
        png = base64.b64encode(filmstrip_png(self.keyframes, neutral=self.predict)).decode()
        # the player even while a prediction is open: scene.js draws the start neutral until
        # the reader plays, scrubs or steps, as it does live
        player = self.standalone_html()
        bundle["text/plain"] = f"Scene: {self.caption}"
        bundle["text/html"] = (f'<figure class="{SCENE_CLASS}-static"><img alt="{alt}" '
                               f'src="data:image/png;base64,{png}">{player}'
                               f"<figcaption>{html.escape(self.caption)}</figcaption>"
                               "</figure>")
        return bundle, metadata

    def __repr__(self) -> str:
        return f"<Scene: {self.caption[:60]}>"

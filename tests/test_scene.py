"""The scene's keyframe builder, declarations and widget, without a browser.

Shapes and payloads of the keyframes of every worked example, the text descriptions computed
from the trajectory, the coupling to an explorer, and the static fallback.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion import examples
from companion.numerics import Trajectory
from companion.scene import generic_scene, keyframes, scene_for
from companion.scene.filmstrip import filmstrip_png
from companion.scene.items import (
    Arrow,
    Declaration,
    Point,
    box_mesh,
    cylinder_mesh,
    quaternion_from_matrices,
    rotate,
    sphere_mesh,
)
from companion.scene.points import declared_points, points_declaration
from companion.scene.widget import Scene

#: Budget of one default motion's keyframe message (issue 13).
PAYLOAD_LIMIT = 250_000


def declared(name: str):
    """The scene function of worked example ``name``."""
    return examples.worked(name).scene.resolve()


@pytest.fixture(scope="module", params=examples.system_names())
def example(request) -> tuple[str, Trajectory]:
    return request.param, examples.get(request.param).simulate()


def test_every_worked_example_declares_a_scene():
    """A slice draws with its own ``scene.py`` or names another's (the rigid dumbbell moves
    as the knife edge): no alias module is needed."""
    missing = [r.name for r in examples.worked_examples() if r.scene is None]
    assert missing == []
    own = 0
    for record in examples.worked_examples():
        assert callable(record.scene.resolve()), record.name
        own += record.scene.module == f"{record.system.module.rsplit('.', 1)[0]}.scene"
    assert 0 < own < len(examples.worked_examples())


def test_keyframes_of_every_example(example):
    name, traj = example
    frames = keyframes.build(declared(name)(traj), traj.t)
    spec = frames.spec
    assert frames.n_frames == min(len(traj.t), keyframes.MAX_FRAMES)
    assert len(frames.data) == 4 * sum(frames.n_frames * w for _, w, _ in
                                       spec["channels"].values())
    np.testing.assert_allclose(frames.channel(spec["time"])[:, 0], traj.t[:frames.n_frames],
                               rtol=1e-6, atol=1e-6)
    assert frames.payload_bytes <= PAYLOAD_LIMIT, f"{name}: {frames.payload_bytes} bytes"
    json.dumps(spec)  # the spec travels as JSON
    lo, hi = np.array(spec["bounds"])
    assert np.all(hi >= lo)
    assert spec["meshes"] or spec["rods"] or spec["points"], f"{name} draws nothing"
    assert spec["description"], f"{name} has no text description"
    for mesh in spec["meshes"]:
        if isinstance(mesh["attitude"], str):
            q = frames.channel(mesh["attitude"])
            np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-5)


def test_keyframes_cap_and_keep_first_and_last():
    picks = keyframes.keyframe_indices(2000, 600)
    assert len(picks) == 600 and picks[0] == 0 and picks[-1] == 1999
    with pytest.raises(ValueError, match="at least 2"):
        keyframes.keyframe_indices(10, 1)


def test_the_same_array_is_sent_once():
    t = np.linspace(0, 1, 50)
    path = np.vstack([t, t**2, 0 * t])
    frames = keyframes.build(Declaration([Point(path, trail=True), Arrow(path, path, "#000")]), t)
    assert len(frames.spec["channels"]) == 2  # time and the path, not three copies


@pytest.mark.parametrize("bad, message", [
    (np.zeros((3, 7)), r"expected shape \(3,\) or \(3, 50\)"),
    (np.full((3, 50), np.nan), "not finite"),
    (np.zeros((4, 50)), "expected 3 rows"),
])
def test_bad_declarations_are_refused_clearly(bad, message):
    with pytest.raises(ValueError, match=message):
        keyframes.build(Declaration([Point(bad)]), np.linspace(0, 1, 50))


def test_unknown_items_and_views_are_refused():
    with pytest.raises(TypeError, match="cannot draw str"):
        keyframes.build(Declaration(["box"]), np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="view must be"):
        Declaration([], view="4d")


@pytest.mark.parametrize("mesh", [box_mesh((1, 2, 3)), cylinder_mesh(1.0, 0.2),
                                  sphere_mesh(1.0)], ids=["box", "disk", "sphere"])
def test_mesh_faces_point_outwards(mesh):
    """The renderers cull faces turned away from the viewer: outward normals are needed."""
    for face in mesh.faces:
        w = mesh.vertices[list(face)]
        normal = np.cross(w[1] - w[0], w[2] - w[0])
        assert normal @ w.mean(axis=0) > 0


def test_quaternions_from_matrices_round_trip():
    rng = np.random.default_rng(7)
    q = rng.normal(size=(4, 40))
    q /= np.linalg.norm(q, axis=0)
    R = np.stack([rotate(q, e) for e in np.eye(3)], axis=1)
    back = quaternion_from_matrices(R)
    for e in np.eye(3):
        np.testing.assert_allclose(rotate(back, e), rotate(q, e), atol=1e-12)
    assert np.all(np.sum(back[:, 1:] * back[:, :-1], axis=0) >= 0)  # continuous signs


def test_rigid_body_description_reports_the_flip_it_finds():
    body = examples.get("euler_body")
    traj = body.simulate()
    text = declared("euler_body")(traj).description
    assert "tennis-racket flip" in text and "t = " in text
    axis_spin = body.simulate(initial={"omega_x": 0.0, "omega_y": 0.0, "omega_z": 1.0})
    assert "without turning over" in declared("euler_body")(axis_spin).description


def test_disk_description_follows_the_modes():
    traj = examples.get("disk_link_friction").simulate()
    text = declared("disk_link_friction")(traj).description
    assert text.startswith("The disk slips forward from t = 0.00 s")
    assert "rolls at t = " in text


def test_a_readers_system_gets_a_scene_from_its_points():
    traj = examples.get("moving_carriage").simulate()
    assert generic_scene(traj) is points_declaration
    assert set(declared_points(traj)) == {"point"}
    d = points_declaration(traj)
    assert d.view == "2d" and "travels" in d.description
    bare = Trajectory(traj.t, traj.states, traj.names, traj.params)
    with pytest.raises(ValueError, match="declare positions as series"):
        points_declaration(bare)


def test_n_link_chains_get_the_chain_scene():
    from companion.examples.double_pendulum.chain import chain

    triple = chain(3)
    traj = triple.simulate(t_final=2.0, n_points=100)
    d = generic_scene(traj)(traj)
    assert "3 links" in d.description
    assert sum(isinstance(i, Arrow) for i in d.items) == 3  # a pin force at each pin


def test_filmstrip_is_a_png():
    traj = examples.get("knife_edge").simulate()
    png = filmstrip_png(keyframes.build(declared("knife_edge")(traj), traj.t))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_scene_widget_replaces_its_motion_and_follows_an_explorer():
    explorer = examples.explorer("euler_body")
    scene = examples.scene("euler_body", explorer)
    first = scene.frames
    explorer.update(omega_x=0.5)
    assert scene.frames != first, "a slider change must replace the keyframes"
    assert scene.trajectory is explorer.trajectory
    play = explorer.view.play
    scene.time = float(explorer.trajectory.t[-1])  # the browser plays to the end
    assert play.sample_index(play._slider.value) == len(explorer.trajectory.t) - 1
    play._slider.value = 0  # the reader scrubs the explorer back
    assert scene.time == explorer.trajectory.t[0]


def test_scene_leaves_a_static_picture_with_alt_text():
    scene = examples.scene("sphere_particle")
    assert isinstance(scene, Scene)
    data, _ = scene._repr_mimebundle_()
    html = data["text/html"]
    assert 'alt="The particle circles the sphere' in html
    assert "data:image/png;base64," in html
    assert "<script type=\"module\">" in html  # and plays where scripts run
    assert data["text/plain"].startswith("Scene: ")


def test_a_readers_explorer_gets_the_generic_scene():
    from companion.examples.polar_spring.view import explorer as spring_explorer

    explorer = spring_explorer(examples.get("polar_spring"))
    scene = scene_for(explorer)
    assert scene.declare is points_declaration
    assert "point travels" in scene.description

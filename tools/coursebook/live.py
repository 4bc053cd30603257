"""Live mode: the course's model runs in the reader's browser, offline, once the reader asks for it.

Sphinx extension. When the book builds, it
- fetches Pyodide from the npm registry (`npm pack pyodide@PYODIDE_VERSION`) into a cache folder once, checks the
  tarball's pinned sha256 and takes only the files a page needs (FILES);
- writes the course's wheel (the packages `roofline` and `roofline.show`, with course.toml: the model and its
  formatting; no figures) from lib/ with the standard library's zipfile, byte for byte the same for the same
  sources;
- copies both into the built site's `_static/live/` and tells every page, in one small inline script, what the
  live mode downloads and how many bytes (`window.rlLive`). Nothing of it loads until the reader presses the
  button (`_static/live.js`); nothing is fetched from outside the site when the page runs.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

PYODIDE_VERSION = "314.0.8"
PYODIDE_SHA256 = "9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb"   # of pyodide-314.0.8.tgz (npm)
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "lib"
PACKAGES = ("roofline", "roofline/show", "roofline/show/pages")   # figures import matplotlib when drawn, never here
WHEEL_NAME = "roofline_course"
WHEEL_VERSION = "1.0.0"
EPOCH = (1980, 1, 1, 0, 0, 0)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "coursebook" / f"pyodide-{PYODIDE_VERSION}"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pyodide_files() -> Path:
    """The folder holding FILES of the pinned Pyodide, fetched from npm once and checked against PYODIDE_SHA256."""
    folder = cache_dir()
    if all((folder / name).is_file() for name in FILES) and (folder / "OK").is_file():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    tarball = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file() or _sha256(tarball) != PYODIDE_SHA256:
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("live mode: npm이 없어 Pyodide를 받을 수 없다. `apt-get install npm` 뒤에 다시 빌드하자.")
        subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", str(folder)],
                       check=True, stdout=subprocess.DEVNULL)
    digest = _sha256(tarball)
    if digest != PYODIDE_SHA256:
        tarball.unlink()
        raise RuntimeError(f"live mode: pyodide-{PYODIDE_VERSION}.tgz의 sha256 {digest}이(가) 고정한 값 {PYODIDE_SHA256}과 다르다")
    with tarfile.open(tarball) as tar:
        for name in FILES:
            member = tar.getmember(f"package/{name}")
            (folder / name).write_bytes(tar.extractfile(member).read())
    (folder / "OK").write_text(digest)
    return folder


def wheel_bytes() -> tuple[str, bytes]:
    """(file name, bytes) of the course's pure-Python wheel for the page: roofline and roofline.show with
    course.toml, no dependencies declared (the page imports neither NumPy, matplotlib nor IPython)."""
    files = []
    for package in PACKAGES:
        folder = LIB / package
        for path in sorted(folder.iterdir()):
            if path.is_file() and (path.suffix == ".py" or path.name == "course.toml"):
                files.append((f"{package}/{path.name}", path.read_bytes()))
    dist = f"{WHEEL_NAME}-{WHEEL_VERSION}.dist-info"
    files.append((f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: roofline-course\nVersion: {WHEEL_VERSION}\n".encode()))
    files.append((f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: coursebook.live\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{dist}/top_level.txt", b"roofline\n"))
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files.append((f"{dist}/RECORD", ("\n".join(record) + "\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return f"{WHEEL_NAME}-{WHEEL_VERSION}-py3-none-any.whl", buffer.getvalue()


def manifest(folder: Path, wheel: str, size: int) -> dict:
    """What the page's script needs before it downloads anything: the files and their total size."""
    sizes = {name: (folder / name).stat().st_size for name in FILES}
    return {"base": "_static/live/", "pyodide": "pyodide/", "wheel": wheel, "version": PYODIDE_VERSION,
            "bytes": sum(sizes.values()) + size}


def _inited(app) -> None:
    folder = pyodide_files()
    name, data = wheel_bytes()
    app.env_live = (folder, name, data)
    app.add_js_file(None, body="window.rlLive = " + json.dumps(manifest(folder, name, len(data))) + ";")


def _finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder, name, data = app.env_live
    target = Path(app.outdir) / "_static" / "live"
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for file in FILES:
        shutil.copyfile(folder / file, target / "pyodide" / file)
    (target / name).write_bytes(data)


def setup(app):
    app.connect("builder-inited", _inited)
    app.connect("build-finished", _finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

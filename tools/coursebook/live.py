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
- writes the same wheel without the page's bytecode, uncompressed (`colab_wheel`), to `_static/colab/<its sha256>/`:
  what a Colab edition's first cell installs, pinned by that sha256 (editions.requirement). No page loads it.
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
# what a page downloads: Pyodide less its lock file of 357 packages (119 KB), which the page, loading no package, has
# no use for; in its place a lock file of the same Pyodide with no package (loadPyodide's `lockFileURL`)
# and Python's standard library as bytecode where the page imports it (`compiled`): no page compiles Python again
SHIPPED = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
LOCK = "course-lock.json"
STDLIB = "course-stdlib.zip"
ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "lib"
PACKAGES = ("roofline", "roofline/show", "roofline/show/pages")   # figures import matplotlib when drawn, never here
WHEEL_NAME = "roofline_course"
WHEEL_VERSION = "1.0.0"
EPOCH = (1980, 1, 1, 0, 0, 0)
COLAB = "_static/colab"    # the site's folder of the wheel the Colab editions install (colab_wheel)


def cache_home() -> Path:
    """This user's cache of what the tooling fetches or makes once per machine, not per checkout ($XDG_CACHE_HOME or
    ~/.cache, then coursebook/): Pyodide here, the simulated Colab's packages in tests/flows/test_colab.py."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "coursebook"


def cache_dir() -> Path:
    return cache_home() / f"pyodide-{PYODIDE_VERSION}"


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


def wheel_bytes(extra: dict[str, bytes] | None = None, lib: Path = LIB,
                compression: int = zipfile.ZIP_DEFLATED) -> tuple[str, bytes]:
    """(file name, bytes) of the course's pure-Python wheel for the page: roofline and roofline.show with
    course.toml, no dependencies declared (the page imports neither NumPy, matplotlib nor IPython); `extra`: more
    files in it (the bytecode of its modules, `compiled`); `lib`: the folder of the packages (another checkout's).
    The bytes are a function of the files alone (fixed dates, modes and system), and with `compression`
    ZIP_STORED of no library either (a deflate stream may differ with the zlib Python was built with): that is
    `colab_wheel`, the one the Colab editions pin by its sha256."""
    files = []
    for package in PACKAGES:
        folder = lib / package
        for path in sorted(folder.iterdir()):
            if path.is_file() and (path.suffix == ".py" or path.name == "course.toml"):
                files.append((f"{package}/{path.name}", path.read_bytes()))
    files += sorted((extra or {}).items())
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
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, EPOCH)
            info.compress_type = compression
            info.create_system = 3          # Unix, on every system (its modes below)
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return f"{WHEEL_NAME}-{WHEEL_VERSION}-py3-none-any.whl", buffer.getvalue()


def colab_wheel(lib: Path = LIB) -> tuple[str, bytes]:
    """(file name, bytes) of the wheel a Colab edition installs (editions.requirement): the page's wheel without
    the page's bytecode, stored uncompressed, so that its sha256 names the library's files on any machine."""
    return wheel_bytes(lib=lib, compression=zipfile.ZIP_STORED)


def colab_path(digest: str, name: str) -> str:
    """Where the site publishes the Colab wheel of sha256 `digest`: a folder named by its content, so an address
    never serves other bytes (nor a cache an older wheel under a new edition's pin)."""
    return f"{COLAB}/{digest[:16]}/{name}"


def lock_file(folder: Path) -> bytes:
    """The lock file the page loads Pyodide with: the pinned one's `info` (its ABI, platform, Python), no
    packages — the course's wheel is unpacked by the page itself (`pyodide.unpackArchive`)."""
    info = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return json.dumps({"info": info, "packages": {}}, sort_keys=True, separators=(",", ":")).encode()


def manifest(folder: Path, wheel: str, size: int, stdlib: int) -> dict:
    """What the page's script needs before it downloads anything: the files and their total size."""
    sizes = [(folder / name).stat().st_size for name in SHIPPED] + [len(lock_file(folder)), stdlib]
    return {"base": "_static/live/", "pyodide": "pyodide/", "wheel": wheel, "lock": LOCK, "stdlib": STDLIB,
            "version": PYODIDE_VERSION, "bytes": sum(sizes) + size}


# Run by Node with the pinned Pyodide (the build has Node for npm): Python imports what a page's live mode imports
# (the engine and every page module it names), and every module of the standard library it imported, and every
# module of the wheel, is written as bytecode (py_compile, unchecked hash: the files are the build's own, never
# edited in the browser). The standard library keeps the sources of what no page imports.
_COMPILE = r"""
import {loadPyodide} from "%(pyodide)s";
import fs from "node:fs";
const [stdlib, wheel, out] = process.argv.slice(2);
const py = await loadPyodide({indexURL: "%(index)s"});
py.FS.writeFile("/tmp/stdlib.zip", fs.readFileSync(stdlib));
py.FS.writeFile("/tmp/wheel.whl", fs.readFileSync(wheel));
py.runPython(`
import importlib.util, py_compile, sys, zipfile
EPOCH = (1980, 1, 1, 0, 0, 0)
MODE = py_compile.PycInvalidationMode.UNCHECKED_HASH

def pyc(source, name):
    with open("/tmp/m.py", "wb") as f:
        f.write(source)
    py_compile.compile("/tmp/m.py", cfile="/tmp/m.pyc", dfile=name, doraise=True, invalidation_mode=MODE)
    with open("/tmp/m.pyc", "rb") as f:
        return f.read()

def write(archive, name, data):
    info = zipfile.ZipInfo(name, EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)

zipfile.ZipFile("/tmp/wheel.whl").extractall("/tmp/site")
sys.path.insert(0, "/tmp/site")
from roofline.show import engine
for page in %(forms)r:
    engine.form(page)
zip_root = [p for p in sys.path if p.endswith(".zip")][0] + "/"
used = {m.__file__[len(zip_root):] for m in list(sys.modules.values())
        if (getattr(m, "__file__", None) or "").startswith(zip_root)}
with zipfile.ZipFile("/tmp/stdlib.zip") as src, zipfile.ZipFile("/tmp/stdlib.out", "w") as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename in used:
            write(dst, info.filename + "c", pyc(data, info.filename))
        else:
            write(dst, info.filename, data)
with zipfile.ZipFile("/tmp/wheel.whl") as src, zipfile.ZipFile("/tmp/wheel.out", "w") as dst:
    for info in src.infolist():
        if info.filename.endswith(".py"):
            cached = importlib.util.cache_from_source("/" + info.filename)[1:]
            write(dst, cached, pyc(src.read(info), info.filename))
`);
fs.writeFileSync(out + ".stdlib", py.FS.readFile("/tmp/stdlib.out"));
fs.writeFileSync(out + ".wheel", py.FS.readFile("/tmp/wheel.out"));
"""


def compiled(folder: Path) -> tuple[bytes, dict[str, bytes]]:
    """(standard library zip, {name: bytecode} of the wheel's modules) for what the page imports (`_COMPILE`), made
    once per Pyodide and library sources (not course.toml: a term's parameters compile nothing again) and kept in
    the cache folder. Starting Python in the page then compiles nothing: on a busy 2-core machine Pyodide started
    in 3–7 s instead of 11–15 s."""
    _, wheel = wheel_bytes()
    sources = b"".join(name.encode() + b"\0" + data for name, data in _zip_entries(wheel) if name.endswith(".py"))
    key = hashlib.sha256(PYODIDE_SHA256.encode() + sources + _COMPILE.encode()).hexdigest()[:16]
    out = folder / f"compiled-{key}"
    if not (Path(f"{out}.stdlib").is_file() and Path(f"{out}.wheel").is_file()):
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("live mode: node가 없어 Python 바이트코드를 만들 수 없다. `apt-get install nodejs` 뒤에 다시 빌드하자.")
        # names of this run's own (two builds may compile at once: tests build copies side by side)
        script, source, tmp = (folder / f"compile-{key}-{os.getpid()}.mjs", folder / f"wheel-{key}-{os.getpid()}.whl",
                               f"{out}.{os.getpid()}")
        from roofline.show import engine

        script.write_text(_COMPILE % {"pyodide": (folder / "pyodide.mjs").as_uri(), "index": f"{folder}/",
                                      "forms": list(engine.forms())}, encoding="utf-8")
        source.write_bytes(wheel)
        done = subprocess.run([node, str(script), str(folder / "python_stdlib.zip"), str(source), tmp],
                              capture_output=True, text=True)
        script.unlink()
        source.unlink()
        if done.returncode != 0:
            raise RuntimeError(f"live mode: 바이트코드를 만들지 못했다:\n{done.stderr[-2000:]}")
        for part in ("stdlib", "wheel"):
            os.replace(f"{tmp}.{part}", f"{out}.{part}")
    return Path(f"{out}.stdlib").read_bytes(), dict(_zip_entries(Path(f"{out}.wheel").read_bytes()))


def _zip_entries(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(name, archive.read(name)) for name in archive.namelist()]


def _inited(app) -> None:
    folder = pyodide_files()
    stdlib, bytecode = compiled(folder)
    name, data = wheel_bytes(bytecode)
    app.env_live = (folder, name, data, stdlib)
    app.add_js_file(None, body="window.rlLive = " + json.dumps(manifest(folder, name, len(data), len(stdlib))) + ";")


def _finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder, name, data, stdlib = app.env_live
    target = Path(app.outdir) / "_static" / "live"
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for file in SHIPPED:
        shutil.copyfile(folder / file, target / "pyodide" / file)
    (target / "pyodide" / LOCK).write_bytes(lock_file(folder))
    (target / "pyodide" / STDLIB).write_bytes(stdlib)
    (target / name).write_bytes(data)
    colab_name, colab_data = colab_wheel()
    wheel = Path(app.outdir) / colab_path(hashlib.sha256(colab_data).hexdigest(), colab_name)
    wheel.parent.mkdir(parents=True, exist_ok=True)
    wheel.write_bytes(colab_data)


def setup(app):
    app.connect("builder-inited", _inited)
    app.connect("build-finished", _finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

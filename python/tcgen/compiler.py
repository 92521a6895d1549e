"""Compiling problems to bundles through the tcgen CLI, with a bundle cache.

This file implements ``Spec`` (an einsum-style problem, as ``tcgen compile
--einsum`` takes it), ``compile()`` and ``compile_bundle()`` (run the
compiler into the cache, or find the bundle there) and the cache's keys.

Cache layout (``cache_root()``: ``$TCGEN_CACHE_DIR``, else
``$XDG_CACHE_HOME/tcgen``, else ``~/.cache/tcgen``)::

    <cache>/<problem key>/<compiler id>/   the bundle (manifest, cubin, ptx)
                                           and .tcgen-cache (what made it)

The problem key hashes the problem (spec fields or MLIR text), the compiler
options and the target; the compiler id hashes the compiler binary. A bundle
is compiled into a temporary directory beside its final place and renamed
there once complete, so concurrent processes never see half a bundle (the
first rename wins; the others drop their copy). Without a compiler (a GPU
machine with the runtime only) a problem's bundle is taken from the cache:
the one of ``$TCGEN_COMPILER_ID`` if set, else the newest.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time

from .errors import CacheMiss, CompileError

# Bumped when the cache layout or the key's fields change.
CACHE_FORMAT = 1
META_FILE = ".tcgen-cache"

_SIZE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EPILOGUE_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words of the epilogue grammar that name no operand (acc2: a dual GEMM's
# second product, read by the epilogue like acc).
_EPILOGUE_WORDS = {
    "acc", "acc2", "max", "min", "relu", "gelu", "gelu_tanh", "gelu_erf", "silu",
    "sigmoid", "tanh", "exp", "f16", "bf16", "f32", "f64", "e", "inf", "nan",
}


class Spec:
    """An einsum-style problem, the fields of ``tcgen compile --einsum``.

    ``einsum`` is "mk,nk->mn" style; ``sizes`` maps each index to its extent,
    or to None / "?" for a size fixed at launch; ``dtypes`` maps operand
    names (a, b, c and the epilogue's operands) to dtypes; ``epilogue`` and
    ``prologue`` are expressions in the spec grammar (docs/USER-GUIDE.md);
    ``accumulate`` makes the kernel compute C += A*B. An epilogue that reads
    ``acc2`` makes a dual GEMM (``dual``): a second weight b2, of b's
    indices and dtype (filled in from b's where dtypes names b only), and
    the epilogue combining acc = A B and acc2 = A B2.
    """

    def __init__(self, einsum, sizes, dtypes, epilogue=None, prologue=None,
                 accumulate=False, name=None):
        if not isinstance(einsum, str) or "->" not in einsum:
            raise ValueError("einsum must be a string like 'mk,nk->mn', got %r"
                             % (einsum,))
        self.einsum = einsum.replace(" ", "")
        self.sizes = {}
        for index, size in dict(sizes).items():
            if not _SIZE_RE.match(str(index)):
                raise ValueError("bad index name %r in sizes" % (index,))
            if size is None or size == "?":
                self.sizes[str(index)] = "?"
            elif isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise ValueError("size of %r must be a positive int or None "
                                 "('?': fixed at launch), got %r" % (index, size))
            else:
                self.sizes[str(index)] = int(size)
        self.dtypes = {str(k): str(v) for k, v in dict(dtypes).items()}
        self.epilogue = epilogue or None
        if self.dual:
            # One key and one command line for a dual spec whether or not
            # it spells b2's dtype out (the compiler takes b's either way).
            b = self.dtypes.get("b")
            if b is not None:
                b2 = self.dtypes.setdefault("b2", b)
                if b2 != b:
                    raise ValueError("dtype of b2 is %s and of b %s: a dual GEMM's "
                                     "B2 has b's dtype" % (b2, b))
        self.prologue = prologue or None
        self.accumulate = bool(accumulate)
        self.name = name or None

    def fields(self):
        """The canonical fields, sorted: what the cache key hashes."""
        return {
            "einsum": self.einsum,
            "sizes": sorted(self.sizes.items()),
            "dtypes": sorted(self.dtypes.items()),
            "epilogue": self.epilogue,
            "prologue": self.prologue,
            "accumulate": self.accumulate,
            "name": self.name,
        }

    def cli_args(self):
        """The spec as ``tcgen compile`` options."""
        args = ["--einsum", self.einsum,
                "--sizes", ",".join("%s=%s" % kv for kv in sorted(self.sizes.items()))]
        if self.dtypes:
            args += ["--dtypes",
                     ",".join("%s=%s" % kv for kv in sorted(self.dtypes.items()))]
        if self.epilogue:
            args += ["--epilogue", self.epilogue]
        if self.prologue:
            args += ["--prologue", self.prologue]
        if self.accumulate:
            args.append("--accumulate")
        if self.name:
            args += ["--name", self.name]
        return args

    @property
    def dual(self):
        """Whether the epilogue reads acc2 (a dual GEMM, with operand b2)."""
        return reads_acc2(self.epilogue or "")

    def operand_names(self):
        """The caller's names of the kernel's inputs, in argument order: a,
        b, b2 (a dual GEMM), the epilogue's operands in order of first use,
        and c where it is read (accumulate)."""
        names = ["a", "b", "b2"] if self.dual else ["a", "b"]
        for word in extra_operands(self.epilogue or ""):
            if word not in names:
                names.append(word)
        if self.accumulate:
            names.append("c")
        return names

    def __repr__(self):
        return "Spec(%s)" % ", ".join("%s=%r" % kv for kv in self.fields().items()
                                      if kv[1] not in (None, False))


def _operand_words(expression):
    """The words of an expression that are operands or acc/acc2: not
    functions, casts, indices or the parts of a number."""
    for match in _EPILOGUE_NAME_RE.finditer(expression):
        word = match.group(0)
        start = match.start()
        if start > 0 and (expression[start - 1].isdigit() or expression[start - 1] == "."):
            continue  # the exponent or suffix of a number (1e-3)
        rest = expression[match.end():].lstrip()
        if rest.startswith("("):
            continue  # a function or a cast
        prefix = expression[:start].rstrip()
        if prefix.endswith("[") or (prefix.endswith(",") and _inside_brackets(prefix)):
            continue  # an index
        yield word


def extra_operands(expression):
    """Names of the operands an epilogue expression reads (``bias[n]``,
    ``res[m,n]``, a bare scalar ``alpha``), in order of first use; not acc
    or a dual GEMM's acc2."""
    names = []
    for word in _operand_words(expression):
        if word not in _EPILOGUE_WORDS and word not in names:
            names.append(word)
    return names


def reads_acc2(expression):
    """Whether an epilogue expression reads ``acc2`` (a dual GEMM's second
    product A B2)."""
    return "acc2" in _operand_words(expression)


def _inside_brackets(prefix):
    return prefix.rfind("[") > prefix.rfind("]")


def as_spec(spec):
    """A Spec from a Spec or a dict of its fields."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, dict):
        return Spec(**spec)
    raise TypeError("spec must be a tcgen.Spec or a dict of its fields, got %s"
                    % type(spec).__name__)


def option_args(options):
    """Compiler options as CLI arguments: a dict ({"swap": 0, "allow_tf32":
    True} -> --swap=0 --allow-tf32) or a list of strings taken as they are."""
    if options is None:
        return []
    if isinstance(options, dict):
        out = []
        for key in sorted(options):
            value = options[key]
            flag = "--" + str(key).replace("_", "-")
            if value is None or value is False:
                continue
            if value is True:
                out.append(flag)
            elif isinstance(value, (list, tuple)):
                out.append("%s=%s" % (flag, ",".join(str(v) for v in value)))
            else:
                out.append("%s=%s" % (flag, value))
        return out
    if isinstance(options, (list, tuple)):
        for o in options:
            if not isinstance(o, str):
                raise TypeError("options list entries must be strings, got %r" % (o,))
        return list(options)
    raise TypeError("options must be a dict or a list of strings")


def cache_root(override=None):
    """The cache's root directory (not created)."""
    if override:
        return os.path.abspath(os.fspath(override))
    env = os.environ.get("TCGEN_CACHE_DIR")
    if env:
        return os.path.abspath(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tcgen")


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def find_compiler():
    """The tcgen binary: $TCGEN_BIN, then PATH, then the build tree of a
    source checkout; None if none is found."""
    env = os.environ.get("TCGEN_BIN")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise CompileError("TCGEN_BIN names %r, which is not an executable "
                               "file" % env)
        return os.path.abspath(env)
    found = shutil.which("tcgen")
    if found:
        return os.path.abspath(found)
    repo = os.path.dirname(os.path.dirname(_package_dir()))
    local = os.path.join(repo, "build", "bin", "tcgen")
    if os.path.isfile(local) and os.access(local, os.X_OK):
        return local
    return None


_id_lock = threading.Lock()
_id_memo = {}


def compiler_id(path):
    """A short hash of the compiler binary's bytes and its --version output
    (which names the MLIR/LLVM it runs on), memoized per process by path,
    size and modification time."""
    st = os.stat(path)
    memo_key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    with _id_lock:
        hit = _id_memo.get(memo_key)
    if hit:
        return hit
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    try:
        proc = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise CompileError("cannot run %s --version: %s" % (path, e))
    if proc.returncode != 0:
        raise CompileError("%s --version failed (exit %d): %s" % (
            path, proc.returncode, proc.stdout.decode("utf-8", "replace").strip()[-500:]))
    h.update(proc.stdout)
    ident = h.hexdigest()[:24]
    with _id_lock:
        _id_memo[memo_key] = ident
    return ident


def problem_description(spec=None, mlir=None, target="sm_90a", options=None):
    """What the problem key hashes: the problem, options and target."""
    if (spec is None) == (mlir is None):
        raise TypeError("give exactly one of spec= and mlir=")
    desc = {"format": CACHE_FORMAT, "target": str(target),
            "options": option_args(options)}
    if spec is not None:
        desc["spec"] = as_spec(spec).fields()
    else:
        desc["mlir"] = _mlir_text(mlir)
    # A tuning cache's records change the kernel: its bytes are part of the
    # problem, not only its name.
    for arg in desc["options"]:
        if arg.startswith("--tuning-cache="):
            path = arg.split("=", 1)[1]
            try:
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                digest = None
            desc.setdefault("files", {})[path] = digest
    return desc


def problem_key(spec=None, mlir=None, target="sm_90a", options=None):
    """The sha256 (hex) of the problem's description."""
    desc = problem_description(spec, mlir, target, options)
    text = json.dumps(desc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _mlir_text(mlir):
    if isinstance(mlir, os.PathLike):
        with open(mlir, encoding="utf-8") as f:
            return f.read()
    if not isinstance(mlir, str):
        raise TypeError("mlir must be MLIR text or a path, got %s" % type(mlir).__name__)
    if "\n" not in mlir and mlir.endswith(".mlir") and os.path.isfile(mlir):
        with open(mlir, encoding="utf-8") as f:
            return f.read()
    return mlir


def compile_command(compiler, out_dir, spec=None, mlir_path=None,
                    target="sm_90a", options=None):
    """The argv that compiles a problem into out_dir."""
    argv = [compiler, "compile"]
    if spec is not None:
        argv += as_spec(spec).cli_args()
    else:
        argv.append(mlir_path)
    argv += ["--target=%s" % target, "-o", out_dir]
    argv += option_args(options)
    return argv


def _read_meta(bundle_dir):
    try:
        with open(os.path.join(bundle_dir, META_FILE), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def cached_bundles(problem_dir):
    """The complete bundles of one problem (paths), newest first."""
    try:
        names = os.listdir(problem_dir)
    except OSError:
        return []
    found = []
    for name in names:
        path = os.path.join(problem_dir, name)
        if name.startswith(".") or not os.path.isdir(path):
            continue
        meta = _read_meta(path)
        if meta is not None:
            found.append((meta.get("created", 0), path))
    found.sort(reverse=True)
    return [p for _, p in found]


def compile_bundle(spec=None, mlir=None, *, target="sm_90a", options=None,
                   cache_dir=None, compiler=None):
    """Returns the directory of the problem's bundle, compiling it into the
    cache if it is not there. `compiler`: the tcgen binary (default:
    find_compiler()), or False for the cache only. Without a compiler that
    runs, a cached bundle of any compiler (the newest, or
    $TCGEN_COMPILER_ID's) is taken; CacheMiss if there is none."""
    desc = problem_description(spec, mlir, target, options)
    pkey = problem_key(spec, mlir, target, options)
    root = cache_root(cache_dir)
    pdir = os.path.join(root, pkey[:32])
    if compiler is None:
        compiler = find_compiler()
    elif compiler is False:
        compiler = None  # the cache only
    why = "no compiler to build one (set TCGEN_BIN or put tcgen on PATH)"
    cid = None
    if compiler is not None:
        try:
            cid = compiler_id(compiler)
        except CompileError as e:
            # A tree copied to a machine without MLIR holds a tcgen that
            # cannot start there: the cache may still have the bundle.
            why = "the compiler cannot run here (%s)" % e
    if cid is None:
        pinned = os.environ.get("TCGEN_COMPILER_ID")
        bundles = cached_bundles(pdir)
        if pinned:
            bundles = [b for b in bundles if os.path.basename(b) == pinned]
        if bundles:
            return bundles[0]
        raise CacheMiss(
            "no bundle for this problem in the cache %s%s and %s; or compile "
            "it where the compiler is into a cache directory and ship that: %s"
            % (root, " for TCGEN_COMPILER_ID=%s" % pinned if pinned else "",
               why, _describe(desc)))
    final = os.path.join(pdir, cid)
    if _read_meta(final) is not None:
        return final
    os.makedirs(pdir, exist_ok=True)
    _remove_stale(pdir)
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=pdir)
    try:
        mlir_path = None
        if mlir is not None:
            mlir_path = os.path.join(tmp, "problem.mlir")
            with open(mlir_path, "w", encoding="utf-8") as f:
                f.write(desc["mlir"])
        argv = compile_command(compiler, tmp, spec=spec, mlir_path=mlir_path,
                               target=target, options=options)
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise CompileError("tcgen compile failed (exit %d): %s\n%s" %
                               (proc.returncode, " ".join(_quote(a) for a in argv),
                                (proc.stderr or proc.stdout).strip()))
        if proc.stderr:
            with open(os.path.join(tmp, "compile.log"), "w", encoding="utf-8") as f:
                f.write(proc.stderr)
        manifests = [n for n in os.listdir(tmp) if n.endswith(".json")]
        if not manifests:
            raise CompileError("tcgen compile wrote no manifest into %s: %s" %
                               (tmp, " ".join(_quote(a) for a in argv)))
        meta = {
            "format": CACHE_FORMAT,
            "key": hashlib.sha256((pkey + cid).encode()).hexdigest(),
            "problem_key": pkey,
            "compiler_id": cid,
            "created": time.time(),
            "problem": desc,
            "manifests": sorted(manifests),
        }
        if spec is not None:
            meta["operand_names"] = as_spec(spec).operand_names()
        with open(os.path.join(tmp, META_FILE), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
        try:
            os.rename(tmp, final)
        except OSError:
            if _read_meta(final) is None:
                raise
            # Another process put the same bundle there first.
            shutil.rmtree(tmp, ignore_errors=True)
        return final
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def emit_mlir(spec, *, target="sm_90a", compiler=None):
    """The linalg module a spec becomes (``tcgen compile --einsum ...
    --emit=mlir``), as text."""
    compiler = compiler or find_compiler()
    if not compiler:
        raise CompileError("no tcgen compiler found (set TCGEN_BIN or put tcgen on PATH)")
    argv = [compiler, "compile"] + as_spec(spec).cli_args() + [
        "--target=%s" % target, "--emit=mlir"]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise CompileError("tcgen compile failed (exit %d): %s\n%s" %
                           (proc.returncode, " ".join(_quote(a) for a in argv),
                            proc.stderr.strip()))
    return proc.stdout


STALE_SECONDS = 6 * 3600


def _remove_stale(problem_dir):
    """Removes temporary directories of compilations that died (older than
    STALE_SECONDS; a live one is younger than any compile takes)."""
    now = time.time()
    for name in os.listdir(problem_dir):
        if not name.startswith(".tmp-"):
            continue
        path = os.path.join(problem_dir, name)
        try:
            if now - os.stat(path).st_mtime > STALE_SECONDS:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass


def _describe(desc):
    if "spec" in desc:
        s = dict(desc["spec"])
        return "spec %s target %s options %s" % (
            " ".join("%s=%s" % (k, v) for k, v in s.items() if v not in (None, False)),
            desc["target"], desc["options"])
    return "MLIR (%d chars) target %s options %s" % (
        len(desc["mlir"]), desc["target"], desc["options"])


def _quote(arg):
    return arg if re.match(r"^[\w@%+=:,./-]+$", arg) else "'%s'" % arg.replace("'", "'\\''")


def compile(spec=None, mlir=None, *, target="sm_90a", options=None,
            cache_dir=None, compiler=None):
    """Compiles a problem (a Spec, a dict of its fields, or MLIR text or a
    path) through the cache and returns its Kernel (tcgen.load)."""
    from .bundle import load

    path = compile_bundle(spec, mlir, target=target, options=options,
                          cache_dir=cache_dir, compiler=compiler)
    return load(path)

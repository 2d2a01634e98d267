#!/usr/bin/env python3
"""Runs the editor setups of docs/editors.md as the page writes them.

usage: editors.py SOURCE_DIR BUILD_DIR WORK_DIR

The setups are the fenced blocks after `<!-- editor: NAME -->` lines; /opt/warplint in
them is replaced by a throwaway `cmake --install` of BUILD_DIR. On a CMake + nvcc project
whose divergent.cu has a warplint finding, with `warplint compdb -p build -o
build/warplint-db` as the page says:

- vscode-settings: the command line that the VS Code Clang-Tidy extension (notskm, 0.5.1,
  src/tidy.ts) builds from these settings, run in the workspace folder, its output read
  as the extension reads it (the YAML after `---`); and the association of .cu with `cpp`
  that the extension's language filter (src/lint.ts: `cpp` and `c` only) needs.
- vim-vimrc, vim-make: Vim, headless, with the page's ~/.vim/vimrc and
  ~/.vim/after/ftplugin/cuda.vim in a home of its own: `:make` fills the quickfix list;
  without the vimrc's `filetype plugin on` it does not.
- ale: ALE in Vim, headless, the block as ~/.vim/vimrc: the finding in the location list;
  none without the g:ale_linter_aliases line (needs Debian's vim-ale, skipped without it).
- clangd: the page's clangd command line over LSP with a .clangd that adds warplint-* and
  a built-in check: the built-in check reports, warplint's do not, no errors; without
  --compile-commands-dir (the build's nvcc database) the diagnostics differ (skipped
  without clangd-22).

Exit 0 when all hold, 1 when one does not, 77 (skip) without nvcc or cmake.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recipes  # noqa: E402  (the sample project, check())
from recipes import check, yaml  # noqa: E402

DIV_LINE, DIV_COL = recipes.DIVERGENT_LINE, 7
ALE_DIRS = ["/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale", "/usr/share/vim-ale"]


def blocks(page):
    return {m.group(1): m.group(2) for m in re.finditer(
        r"^ *<!-- editor: (\S+) -->\n *```\w*\n(.*?)^ *```$", page, re.M | re.S)}


def dedent(text):
    lines = text.splitlines()
    indent = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
    return "\n".join(l[indent:] for l in lines) + "\n"


def vim(home, script, cwd, env, file, timeout=90):
    """Runs Vim headless on file as a user whose home is home (its ~/.vim/vimrc and
    ~/.vim/after/ read as Vim reads them), then script (which must :qa! itself)."""
    # Vim exits on end of input: keep its stdin open until it is done.
    feeder = subprocess.Popen(["sleep", str(timeout)], stdout=subprocess.PIPE)
    try:
        subprocess.run(["vim", "-i", "NONE", "--not-a-term", "-c", "source " + script, file],
                       cwd=cwd, env=dict(env, HOME=home), stdin=feeder.stdout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    finally:
        feeder.kill()
        feeder.wait()


def vim_home(work, name, files):
    """A home directory for Vim: files maps paths under it to their text."""
    home = os.path.join(work, name)
    for path, text in files.items():
        full = os.path.join(home, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return home


def vscode(settings_text, repo, env):
    settings = json.loads(settings_text)
    assoc = settings.get("files.associations", {})
    check(assoc.get("*.cu") == "cpp" and assoc.get("*.cuh") == "cpp",
          "vscode: .cu and .cuh are associated with cpp, the extension lints only cpp and c")
    build_path = settings.get("clang-tidy.buildPath", "")
    check("${" not in build_path, "vscode: buildPath has no ${...} (the extension does not expand it)")
    # src/tidy.ts: [...extraArgs, file, "--export-fixes=-"], --checks=, -p=, in the folder.
    file = os.path.join(repo, "divergent.cu")
    args = [settings.get("clang-tidy.executable", "clang-tidy")]
    args += settings.get("clang-tidy.extraArgs", []) + [file, "--export-fixes=-"]
    if settings.get("clang-tidy.checks"):
        args.append("--checks=" + ",".join(settings["clang-tidy.checks"]))
    if build_path:
        args.append("-p=" + build_path)
    out = subprocess.run(args, cwd=repo, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    at = re.search(r"^---$", out, re.M)
    diags = yaml.safe_load(out[at.start():])["Diagnostics"] if at else []
    found = [d for d in diags if d["DiagnosticName"] == "warplint-divergent-branch" and
             d["DiagnosticMessage"]["FilePath"] == file]
    check(bool(found), "vscode: the extension's clang-tidy command gives the finding in its YAML")


def vim_make(vimrc, ftplugin, repo, env, work):
    """The page's ~/.vim/vimrc and ~/.vim/after/ftplugin/cuda.vim, then :make; and the
    same without the vimrc's `filetype plugin on` (the ftplugin is then not read)."""
    for name, rc in (("vim-make", vimrc),
                     ("vim-make-no-ftplugin", re.sub(r"^filetype plugin on\n", "", vimrc, flags=re.M))):
        home = vim_home(work, name, {".vim/vimrc": rc, ".vim/after/ftplugin/cuda.vim": ftplugin})
        script, out = os.path.join(home, "test.vim"), os.path.join(home, "qf.txt")
        with open(script, "w") as f:
            f.write("silent make!\n"
                    "call writefile(map(filter(getqflist(), 'v:val.valid'), {i, v -> "
                    "bufname(v.bufnr) . ':' . v.lnum . ':' . v.col . ':' . v.type . ':' . v.text}), "
                    f"'{out}')\nqa!\n")
        vim(home, script, repo, env, "divergent.cu")
        qf = open(out).read().splitlines() if os.path.exists(out) else []
        hit = any(l.startswith(f"divergent.cu:{DIV_LINE}:{DIV_COL}:w:branch on 'threadIdx.x' diverges")
                  for l in qf)
        if name == "vim-make":
            check(hit, f"vim-make: the warning in the quickfix list ({qf})")
            check(any(l.startswith(f"divergent.cu:{DIV_LINE}:{DIV_COL}::") for l in qf),
                  "vim-make: its note in the quickfix list")
        else:
            check(not hit, f"vim-make without `filetype plugin on`: no warplint finding ({qf})")


def ale(config, repo, env, work):
    if not any(os.path.isdir(d) for d in ALE_DIRS):
        print("skipped: ALE (Debian's vim-ale) is not installed")
        return False
    for name, text in (("ale", config),
                       ("ale-no-alias", re.sub(r"^let g:ale_linter_aliases.*\n", "", config, flags=re.M))):
        d = vim_home(work, name, {".vim/vimrc": text})
        script, out = (os.path.join(d, n) for n in ("test.vim", "loclist.txt"))
        # Wait until ALE has run (and finished) its linters, or 60 s.
        with open(script, "w") as f:
            f.write(f"""let s:start = reltime()
function! Dump(timer) abort
  let l:done = reltimefloat(reltime(s:start)) > 8 && !ale#engine#IsCheckingBuffer(bufnr(''))
  if !empty(getloclist(0)) || l:done || reltimefloat(reltime(s:start)) > 60
    call writefile(['linters=' . join(map(ale#linter#Get(&filetype), 'v:val.name'), ',')]
    \\ + map(getloclist(0), {{i, v -> v.lnum . ':' . v.col . ':' . v.type . ':' . v.text}}), '{out}')
    qa!
  endif
endfunction
call timer_start(500, 'Dump', {{'repeat': -1}})
""")
        vim(d, script, repo, env, "divergent.cu")
        lines = open(out).read().splitlines() if os.path.exists(out) else []
        hit = any(l.startswith(f"{DIV_LINE}:{DIV_COL}:W:branch on 'threadIdx.x' diverges") for l in lines)
        if name == "ale":
            check(hit, f"ale: the finding in the location list of divergent.cu ({lines})")
        else:
            check(not hit and lines and "clangtidy" not in lines[0],
                  f"ale without g:ale_linter_aliases: no clangtidy linter for cuda, no finding ({lines})")
    return True


def clangd_diagnostics(argv, repo, env, path):
    """clangd started with argv in repo, over LSP: the diagnostics of path on open (code,
    message, severity), or None when none came."""
    p = subprocess.Popen(argv, cwd=repo, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)

    def send(msg):
        b = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        p.stdin.flush()

    def recv():
        n = 0
        while True:
            line = p.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(p.stdout.read(n)) if n else {}

    diags = None
    try:
        uri = "file://" + path
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": "file://" + repo, "capabilities": {}}})
        deadline = time.time() + 90
        while recv().get("id") != 1 and time.time() < deadline:
            pass
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "cuda", "version": 1, "text": open(path).read()}}})
        while time.time() < deadline:
            m = recv()
            if not m:
                break
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                diags = [(d.get("code"), d.get("message"), d.get("severity"))
                         for d in m["params"]["diagnostics"]]
                break
    finally:
        p.kill()
        p.wait()
    return diags


def clangd(command, repo, env):
    """The page's clangd command line (with the translated database), and the same without
    --compile-commands-dir: clangd then reads the build's nvcc database."""
    argv = shlex.split(command.strip())
    if not shutil.which(argv[0], path=env["PATH"]):
        print(f"skipped: {argv[0]} is not installed")
        return False
    with open(os.path.join(repo, ".clangd"), "w") as f:
        f.write("Diagnostics:\n  ClangTidy:\n    Add: [warplint-*, bugprone-integer-division]\n")
    path = os.path.join(repo, "idiv.cu")
    with open(path, "w") as f:
        f.write(recipes.DIVERGENT.replace("Out[threadIdx.x] = 1.0f;", "Out[threadIdx.x] = 1 / 2 * 1.0;"))
    diags = clangd_diagnostics(argv, repo, env, path)
    codes = [c for c, _, _ in diags or []]
    check(diags is not None and "bugprone-integer-division" in codes,
          f"clangd: runs its built-in clang-tidy check on the .cu file ({diags})")
    check(diags is not None and not any(str(c).startswith("warplint-") for c in codes),
          "clangd: shows none of warplint's checks")
    check(not any(sev == 1 for _, _, sev in diags or []),
          f"clangd with the translated database: no errors ({diags})")
    plain = [a for a in argv if not a.startswith("--compile-commands-dir")]
    nvcc_diags = clangd_diagnostics(plain, repo, env, path)
    print(f"clangd without --compile-commands-dir (the build's nvcc database): {nvcc_diags}")
    check(nvcc_diags != diags,
          f"clangd without --compile-commands-dir reads the nvcc database and differs ({nvcc_diags})")
    return True


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, build, work = (os.path.abspath(a) for a in argv[1:])
    nvcc = os.environ.get("CUDA_NVCC", "/usr/local/cuda/bin/nvcc")
    if not os.access(nvcc, os.X_OK) or not shutil.which("cmake"):
        print("editors: no nvcc or cmake: skipped")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    page = open(os.path.join(src, "docs", "editors.md")).read()
    found = blocks(page)
    for name in ("vscode-settings", "vim-vimrc", "vim-make", "ale", "clangd"):
        if not check(name in found, f"docs/editors.md has the block {name}"):
            return 1
    prefix = os.path.join(work, "prefix")
    subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    setups = {n: dedent(t).replace("/opt/warplint", prefix) for n, t in found.items()}
    env = dict(os.environ, CUDACXX=nvcc, HOME=os.path.join(work, "home"))
    env["PATH"] = os.pathsep.join([os.path.join(prefix, "bin"), os.path.dirname(nvcc), env["PATH"]])
    os.makedirs(env["HOME"])

    repo = os.path.join(work, "project")
    files = recipes.VARIANTS["findings"][0]
    recipes.write_project(repo, files)
    subprocess.run("cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && "
                   "warplint compdb -p build -o build/warplint-db", shell=True, cwd=repo, env=env,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    vscode(setups["vscode-settings"], repo, env)
    have_vim = shutil.which("vim", path=env["PATH"]) is not None
    if have_vim:
        vim_make(setups["vim-vimrc"], setups["vim-make"], repo, env, work)
        ale(setups["ale"], repo, env, work)
    else:
        print("skipped: vim is not installed (vim-make, ale)")
    clangd(setups["clangd"], repo, env)
    if recipes.FAILURES:
        print(f"\n{len(recipes.FAILURES)} setup(s) of docs/editors.md do not work (files in {work})")
        return 1
    print("\nthe editor setups of docs/editors.md work as the page says")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

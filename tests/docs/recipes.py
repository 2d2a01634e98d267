#!/usr/bin/env python3
"""Runs the recipes of docs/ci.md as the docs write them, so that the docs cannot drift.

usage: recipes.py ci|tidy SOURCE_DIR BUILD_DIR WORK_DIR [SARIF_SCHEMA]

The recipes are the fenced blocks that follow a `<!-- recipe: NAME -->` line in
docs/ci.md; the outcomes the docs promise are the table after `<!-- recipe-outcomes -->`.

ci: the GitHub Actions jobs (a small runner of our own: `run` steps with `bash -e` as
GitHub does, `if:`, `$GITHUB_OUTPUT`, `$GITHUB_PATH`, `${{ steps.*.outputs.* }}`,
`${{ matrix.* }}`; upload-sarif and upload-artifact check that their files exist) and the
GitLab job (`script` in one `bash` with `set -eo pipefail` as the runner does,
`allow_failure: exit_codes`, `artifacts: when: always`), each on a CMake + nvcc project
with findings (warplint exits 1), without (0) and with a file that does not parse (2).
The steps that install warplint (GitHub's "Install warplint", GitLab's before_script) are
not run: the build under test is put on PATH in their place.

tidy: run-clang-tidy-22 and clang-tidy-diff-22.py with the plugin, on a git repository
with an `origin/main` and a change to a .cu file and a .cuh header, with warplint
installed (`cmake --install`) in a throwaway prefix that replaces /opt/warplint.

Exit 0 when every promise holds, 1 when one does not, 77 (skip) without nvcc, cmake, git
or python3-yaml.
"""
import json
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("recipes: python3-yaml is not installed: skipped")
    sys.exit(77)

FAILURES = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        FAILURES.append(what)
    return ok


# --- the page ---------------------------------------------------------------------------

def recipes(page):
    """{name: (language, text)} of the blocks marked `<!-- recipe: NAME -->`."""
    found = {}
    for m in re.finditer(r"^<!-- recipe: (\S+) -->\n```(\w*)\n(.*?)^```$", page, re.M | re.S):
        found[m.group(1)] = (m.group(2), m.group(3))
    return found


def outcomes(page):
    """{exit status: {column header: cell}} from the table after `<!-- recipe-outcomes -->`."""
    block = page.split("<!-- recipe-outcomes -->\n", 1)[1]
    rows = []
    for line in block.splitlines():
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    header, body = rows[0], rows[2:]
    table = {}
    for row in body:
        status = int(re.match(r"\d+", row[0]).group(0))
        table[status] = dict(zip(header[1:], row[1:]))
    return table


def promised(table, status, column_part):
    """The outcome (success, warning, failure) the table gives for a status and a job."""
    cells = [v for k, v in table[status].items() if column_part in k]
    assert len(cells) == 1, f"no single column with {column_part!r} in the outcomes table"
    cell = cells[0]
    if cell.startswith("passes with a warning"):
        return "warning"
    if cell.startswith("passes"):
        return "success"
    if cell.startswith("fails"):
        return "failure"
    raise ValueError(f"outcome {cell!r} is not one the test knows")


# --- the sample project -------------------------------------------------------------------

CMAKE = """cmake_minimum_required(VERSION 3.20)
project(sample LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
file(GLOB SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/*.cu)
add_library(sample STATIC ${SOURCES})
"""
DIVERGENT = """__global__ void oddEven(float *Out) {
  if (threadIdx.x % 2)
    Out[threadIdx.x] = 1.0f;
  else
    Out[threadIdx.x + 128] = 2.0f;
}
void launchOddEven(float *Out) { oddEven<<<1, 128>>>(Out); }
"""
DIVERGENT_LINE = 2
CLEAN = {
    "copy.cu": "__global__ void copy(float *O, const float *I) { O[threadIdx.x] = I[threadIdx.x]; }\n"
               "void launchCopy(float *O, const float *I) { copy<<<4, 256>>>(O, I); }\n",
    "scale.cu": "__global__ void scale(float *D, float F) { D[threadIdx.x] *= F; }\n"
                "void launchScale(float *D) { scale<<<8, 128>>>(D, 2.0f); }\n",
    "fill.cu": "__global__ void fill(float *D) { D[blockIdx.x * 64 + threadIdx.x] = 0; }\n"
               "void launchFill(float *D) { fill<<<16, 64>>>(D); }\n",
}
BROKEN = "__global__ void broken(float *D { }\n"
VARIANTS = {  # name: (files, the exit status of `warplint check -p build`)
    "clean": ({"copy.cu": CLEAN["copy.cu"]}, 0),
    "findings": (dict(CLEAN, **{"divergent.cu": DIVERGENT}), 1),  # 4 files, for 4 shards
    "broken": ({"divergent.cu": DIVERGENT, "broken.cu": BROKEN}, 2),
}


def write_project(path, files):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE)
    for name, text in files.items():
        with open(os.path.join(path, name), "w") as f:
            f.write(text)


def reset_workspace(path, files):
    """A fresh checkout as CI has it: the sources, and the build tree kept for speed."""
    keep = set(files) | {"CMakeLists.txt", "build"}
    for name in os.listdir(path):
        if name not in keep:
            p = os.path.join(path, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


# --- a small GitHub Actions runner --------------------------------------------------------

def github_str(v):
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def expand(text, outputs, matrix):
    def one(m):
        expr = m.group(1).strip()
        s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if s:
            return outputs.get(s.group(1), {}).get(s.group(2), "")
        s = re.fullmatch(r"matrix\.([\w-]+)", expr)
        if s and s.group(1) in matrix:
            return github_str(matrix[s.group(1)])
        raise ValueError(f"expression the test runner does not know: {expr}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def run_github_job(job, cwd, env, matrix=None, log=None):
    """Runs the steps; returns (conclusion, {step label: outcome}, uploads, output)."""
    matrix = matrix or {}
    env = dict(env, **{k: github_str(v) for k, v in (job.get("env") or {}).items()})
    outputs, results, uploads, output = {}, {}, [], ""
    failed = False
    tmp = os.path.join(cwd, ".runner")
    os.makedirs(tmp, exist_ok=True)
    for i, step in enumerate(job["steps"]):
        label = expand(step.get("name") or step.get("uses") or f"step {i + 1}", outputs, matrix)
        cond = step.get("if")
        if cond is None:
            run = not failed
        elif cond.strip() == "always()":
            run = True
        else:
            raise ValueError(f"if: {cond} is not something the test runner knows")
        if not run:
            results[label] = "skipped"
            continue
        with_ = {k: expand(github_str(v), outputs, matrix) for k, v in (step.get("with") or {}).items()}
        ok = True
        if step.get("name") == "Install warplint":
            results[label] = "replaced"  # the build under test is already on PATH
            continue
        if "uses" in step:
            action = step["uses"].split("@")[0]
            if action == "actions/checkout":
                pass  # the sample project is the checkout
            elif action == "github/codeql-action/upload-sarif":
                ok = os.path.isfile(os.path.join(cwd, with_["sarif_file"]))
                if ok:
                    uploads.append(("sarif", with_["sarif_file"], with_.get("category")))
            elif action == "actions/upload-artifact":
                # The real action only warns on a missing file; the test records it.
                if os.path.exists(os.path.join(cwd, with_["path"])):
                    uploads.append(("artifact", with_["path"], with_.get("name")))
            else:
                raise ValueError(f"uses: {step['uses']} is not something the test runner knows")
        else:
            step_env = dict(env, **{k: expand(github_str(v), outputs, matrix)
                                    for k, v in (step.get("env") or {}).items()})
            out_file, path_file = os.path.join(tmp, f"output{i}"), os.path.join(tmp, f"path{i}")
            open(out_file, "w").close()
            open(path_file, "w").close()
            step_env.update(GITHUB_OUTPUT=out_file, GITHUB_PATH=path_file)
            script = os.path.join(tmp, f"step{i}.sh")
            with open(script, "w") as f:
                f.write(expand(step["run"], outputs, matrix))
            p = subprocess.run(["bash", "-e", script], cwd=cwd, env=step_env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            output += p.stdout
            ok = p.returncode == 0
            if "id" in step:
                outputs[step["id"]] = dict(line.split("=", 1) for line in
                                           open(out_file).read().splitlines() if "=" in line)
            for d in open(path_file).read().splitlines():
                env["PATH"] = d + os.pathsep + env["PATH"]
            if log:
                log.write(f"--- {label}: exit {p.returncode}\n{p.stdout}")
        results[label] = "success" if ok else "failure"
        failed = failed or not ok
    shutil.rmtree(tmp)
    return ("failure" if failed else "success"), results, uploads, output


def run_gitlab_job(job, cwd, env, log=None):
    """Runs script (and after_script); returns (status, exit code, missing artifacts)."""
    env = dict(env, **{k: str(v) for k, v in (job.get("variables") or {}).items()})
    script = "set -eo pipefail\n" + "\n".join(job["script"]) + "\n"
    p = subprocess.run(["bash", "-c", script], cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if log:
        log.write(f"--- gitlab script: exit {p.returncode}\n{p.stdout}")
    if job.get("after_script"):
        subprocess.run(["bash", "-c", "\n".join(job["after_script"])], cwd=cwd, env=env)
    allowed = (job.get("allow_failure") or {}).get("exit_codes", []) \
        if isinstance(job.get("allow_failure"), dict) else []
    status = "success" if p.returncode == 0 else \
        "warning" if p.returncode in allowed else "failure"
    artifacts = job.get("artifacts") or {}
    collect = artifacts.get("when") == "always" or status != "failure"
    missing = [a for a in artifacts.get("paths", []) if not os.path.exists(os.path.join(cwd, a))]
    return status, p.returncode, (missing if collect else artifacts.get("paths", []))


# --- checks of the artifacts --------------------------------------------------------------

def sarif_results(path):
    log = json.load(open(path))
    run = log["runs"][0]
    results = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"])
               for r in run["results"]}
    return results, run["invocations"][0]["executionSuccessful"]


def validate_sarif(schema, paths):
    if not schema or not os.path.isfile(schema):
        return True
    validator = os.path.join(os.path.dirname(__file__), "..", "sarif", "validate-sarif.py")
    rc = subprocess.run([sys.executable, validator, schema] + paths).returncode
    return rc in (0, 77)


def check_sarif(cwd, name, variant, schema, what):
    path = os.path.join(cwd, name)
    if not check(os.path.isfile(path), f"{what}: {name} written"):
        return
    results, ok = sarif_results(path)
    divergent = ("warplint-divergent-branch", "divergent.cu", DIVERGENT_LINE)
    check((divergent in results) == (variant != "clean"),
          f"{what}: the divergence finding is in {name} exactly when there is one")
    check(ok == (variant != "broken"), f"{what}: executionSuccessful is {variant != 'broken'}")
    check(validate_sarif(schema, [path]), f"{what}: {name} validates against the SARIF schema")


# --- ci -----------------------------------------------------------------------------------

def ci(src, build, work, schema):
    page = open(os.path.join(src, "docs", "ci.md")).read()
    found = recipes(page)
    for name in ("github-sarif", "github-annotations", "github-shards", "gitlab"):
        if not check(name in found, f"docs/ci.md has the recipe {name}"):
            return
    table = outcomes(page)
    nvcc = os.environ.get("CUDA_NVCC", "/usr/local/cuda/bin/nvcc")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.join(build, "bin"), os.path.dirname(nvcc), env["PATH"]])
    env["CUDACXX"] = nvcc
    env.pop("WARPLINT_DOCS_BASE_URL", None)
    log = open(os.path.join(work, "jobs.log"), "w")

    workflow = yaml.safe_load(found["github-sarif"][1])
    job = workflow["jobs"]["warplint"]
    check(any(s.get("name") == "Install warplint" for s in job["steps"]),
          "github-sarif: the install step the test replaces is there")
    check("WARPLINT_FAIL_ON_FINDINGS" in job["env"], "github-sarif: WARPLINT_FAIL_ON_FINDINGS is set")
    gitlab = yaml.safe_load(found["gitlab"][1])["warplint"]
    check(any("setup.sh" in line for line in gitlab["before_script"]) and
          gitlab["before_script"][-1].startswith("export PATH="),
          "gitlab: before_script is the install the test replaces")
    annotations = yaml.safe_load(found["github-annotations"][1])
    shards = yaml.safe_load(found["github-shards"][1])
    configure = [s for s in job["steps"] if s.get("name", "").startswith("Configure")]

    # One workspace for the three variants: their sources swapped in, the CMake build tree
    # (and its CUDA compiler detection) kept; the recipes' configure step globs the files.
    cwd = os.path.join(work, "project")
    for variant, (files, status) in VARIANTS.items():
        if os.path.isdir(cwd):
            reset_workspace(cwd, {})
        write_project(cwd, files)
        # The premise: warplint exits with this variant's status.
        subprocess.run(["cmake", "-S", ".", "-B", "build", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                       cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
        rc = subprocess.run(["warplint", "check", "-p", "build"], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if not check(rc == status, f"{variant}: warplint check -p build exits {status} (got {rc})"):
            continue

        # GitHub Actions, SARIF to code scanning, with WARPLINT_FAIL_ON_FINDINGS as written
        # and set to true.
        for gate in (False, True):
            reset_workspace(cwd, files)
            j = dict(job, env=dict(job["env"], WARPLINT_FAIL_ON_FINDINGS=gate))
            what = f"github-sarif ({variant}, WARPLINT_FAIL_ON_FINDINGS: {github_str(gate)})"
            conclusion, steps, uploads, _ = run_github_job(j, cwd, env, log=log)
            want = promised(table, status, "WARPLINT_FAIL_ON_FINDINGS: true" if gate
                            else "GitHub Actions job")
            check(conclusion == want, f"{what}: job {conclusion}, the docs say {want} ({steps})")
            check(("sarif", "warplint.sarif", "warplint") in uploads, f"{what}: SARIF uploaded")
            check(("artifact", "warplint-report.html", "warplint-report") in uploads,
                  f"{what}: report kept as an artifact")
            check_sarif(cwd, "warplint.sarif", variant, schema, what)
        sarif = os.path.join(cwd, "warplint.sarif")
        full = sarif_results(sarif)[0] if os.path.isfile(sarif) else set()

        # GitHub annotations: the job fails on findings and on errors, as the page says.
        if variant != "broken":
            reset_workspace(cwd, files)
            conclusion, _, _, output = run_github_job({"steps": configure + annotations}, cwd, env,
                                                      log=log)
            want = "success" if status == 0 else "failure"
            check(conclusion == want, f"github-annotations ({variant}): job {conclusion}, expected {want}")
            mark = f"::warning file=divergent.cu,line={DIVERGENT_LINE},col=7,title=warplint-divergent-branch::"
            check((mark in output) == (variant == "findings"),
                  f"github-annotations ({variant}): the annotation is there exactly when there is a finding")

        # GitHub shards: every shard green on findings, each SARIF uploaded, together the
        # findings of one unsharded run.
        if variant == "findings":
            union = set()
            for shard in shards["strategy"]["matrix"]["shard"]:
                reset_workspace(cwd, files)
                what = f"github-shards ({variant}, shard {shard})"
                conclusion, steps, uploads, _ = run_github_job(
                    {"steps": configure + shards["steps"]}, cwd, env, {"shard": shard}, log=log)
                check(conclusion == "success", f"{what}: job {conclusion}, expected success ({steps})")
                check(("sarif", "shard.sarif", f"warplint-shard-{shard}") in uploads,
                      f"{what}: SARIF uploaded under its own category")
                if os.path.isfile(os.path.join(cwd, "shard.sarif")):
                    union |= sarif_results(os.path.join(cwd, "shard.sarif"))[0]
            check(union == full and bool(full), "github-shards: the shards together find what one run finds")

        # GitLab.
        reset_workspace(cwd, files)
        got, code, missing = run_gitlab_job(gitlab, cwd, env, log=log)
        want = promised(table, status, "GitLab job")
        check(got == want, f"gitlab ({variant}): job {got} (exit {code}), the docs say {want}")
        check(not missing, f"gitlab ({variant}): artifacts kept (missing: {missing})")
        check_sarif(cwd, "warplint.sarif", variant, schema, f"gitlab ({variant})")


# --- tidy ---------------------------------------------------------------------------------

HEADER_BASE = "#pragma once\n__device__ inline float twice(float X) { return 2.0f * X; }\n"
HEADER_CHANGE = ("__global__ void fromHeader(float *D) { D[threadIdx.x] = twice(D[threadIdx.x]); }\n"
                 "inline void launchFromHeader(float *D) { fromHeader<<<1, 48>>>(D); }\n")
COPY_CHANGE = ("__global__ void halves(float *D) {\n"
               "  if (threadIdx.x % 2)\n"
               "    D[threadIdx.x] = 1;\n"
               "  else\n"
               "    D[threadIdx.x + 64] = 2;\n"
               "}\n"
               "void launchHalves(float *D) { halves<<<1, 64>>>(D); }\n")


def sh(cmd, cwd, env, check_rc=True):
    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if check_rc and p.returncode != 0:
        raise RuntimeError(f"{cmd} exited {p.returncode}:\n{p.stdout}")
    return p.returncode, p.stdout


def tidy(src, build, work):
    page = open(os.path.join(src, "docs", "ci.md")).read()
    found = recipes(page)
    for name in ("run-clang-tidy", "clang-tidy-diff"):
        if not check(name in found, f"docs/ci.md has the recipe {name}"):
            return
    prefix = os.path.join(work, "prefix")
    subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    blocks = {n: found[n][1].replace("/opt/warplint", prefix) for n in found}
    for n in ("run-clang-tidy", "clang-tidy-diff"):
        check(prefix in blocks[n], f"{n}: names the installation /opt/warplint")
    nvcc = os.environ.get("CUDA_NVCC", "/usr/local/cuda/bin/nvcc")
    env = dict(os.environ, CUDACXX=nvcc, GIT_CONFIG_NOSYSTEM="1", HOME=os.path.join(work, "home"),
               GIT_AUTHOR_NAME="warplint", GIT_AUTHOR_EMAIL="warplint@example.invalid",
               GIT_COMMITTER_NAME="warplint", GIT_COMMITTER_EMAIL="warplint@example.invalid")
    env["PATH"] = os.pathsep.join([os.path.join(prefix, "bin"), os.path.dirname(nvcc), env["PATH"]])
    os.makedirs(env["HOME"], exist_ok=True)

    # A project on main, pushed to origin; then a change on a branch.
    origin, repo = os.path.join(work, "origin.git"), os.path.join(work, "project")
    files = dict(VARIANTS["findings"][0], **{"util.cuh": HEADER_BASE})
    write_project(repo, files)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("build/\n")
    sh(f"git init -q --bare {origin} && git init -q -b main && git add -A && "
       f"git commit -q -m base && git remote add origin {origin} && git push -q origin main && "
       "git checkout -q -b change", repo, env)
    sh("cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON", repo, env)
    with open(os.path.join(repo, "copy.cu"), "a") as f:
        f.write(COPY_CHANGE)
    with open(os.path.join(repo, "util.cuh"), "a") as f:
        f.write(HEADER_CHANGE)
    sh("git commit -q -am change", repo, env)
    copy_line = CLEAN["copy.cu"].count("\n") + 2
    header_line = HEADER_BASE.count("\n") + 2
    unchanged = f"divergent.cu:{DIVERGENT_LINE}:7: warning: "
    changed = f"copy.cu:{copy_line}:7: warning: branch on 'threadIdx.x' diverges"
    in_header = f"util.cuh:{header_line}:"

    rc, out = sh(blocks["run-clang-tidy"], repo, env, check_rc=False)
    open(os.path.join(work, "run-clang-tidy.log"), "w").write(out)
    check(rc == 0, f"run-clang-tidy: exits 0 with warnings (got {rc})")
    check(unchanged in out and changed in out, "run-clang-tidy: reports the findings of every file")
    rc, _ = sh(blocks["run-clang-tidy"].rstrip() + " -warnings-as-errors='warplint-*'", repo, env,
               check_rc=False)
    check(rc == 1, f"run-clang-tidy: -warnings-as-errors makes findings exit 1 (got {rc})")

    diff = blocks["clang-tidy-diff"]
    rc, out = sh(diff, repo, env, check_rc=False)
    open(os.path.join(work, "clang-tidy-diff.log"), "w").write(out)
    check(rc == 0, f"clang-tidy-diff: exits 0 with warnings (got {rc})")
    check(changed in out, "clang-tidy-diff: the finding on the changed line of copy.cu")
    check(in_header in out and "[warplint-block-size-warp-multiple]" in out,
          "clang-tidy-diff: the finding on the changed line of the header util.cuh")
    check(unchanged not in out, "clang-tidy-diff: no finding from the unchanged divergent.cu")
    rc, _ = sh(diff.rstrip() + " -warnings-as-errors='warplint-*'", repo, env, check_rc=False)
    check(rc == 1, f"clang-tidy-diff: -warnings-as-errors makes findings exit 1 (got {rc})")
    # What the page says of the options it insists on.
    check("-iregex '.*\\.cuh?'" in diff, "clang-tidy-diff: the recipe has -iregex '.*\\.cuh?'")
    rc, out = sh(diff.replace(" -iregex '.*\\.cuh?'", ""), repo, env, check_rc=False)
    check(rc == 0 and "No relevant changes found." in out and "[warplint-" not in out,
          "clang-tidy-diff without -iregex: checks nothing, says 'No relevant changes found.', exits 0")
    plain = shutil.which("clang-tidy", path=env["PATH"])
    version = sh("clang-tidy --version", repo, env, check_rc=False)[1] if plain else ""
    if plain and not re.search(r"version 22\.", version):
        rc, out = sh(diff.replace("-clang-tidy-binary clang-tidy-22 ", ""), repo, env, check_rc=False)
        check(rc != 0 and "[warplint-" not in out,
              "clang-tidy-diff without -clang-tidy-binary: plain clang-tidy (not 22) reports "
              f"nothing and the script fails (got {rc})")
    else:
        print("note: plain clang-tidy is absent or is 22 here; the case without "
              "-clang-tidy-binary is not run")


def main(argv):
    if len(argv) < 5 or argv[1] not in ("ci", "tidy"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, src, build, work = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3]), \
        os.path.abspath(argv[4])
    schema = argv[5] if len(argv) > 5 else ""
    nvcc = os.environ.get("CUDA_NVCC", "/usr/local/cuda/bin/nvcc")
    for tool, present in (("nvcc", os.access(nvcc, os.X_OK)), ("cmake", shutil.which("cmake")),
                          ("git", shutil.which("git"))):
        if not present:
            print(f"recipes: no {tool}: skipped")
            return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if mode == "ci":
        ci(src, build, work, schema)
    else:
        tidy(src, build, work)
    if FAILURES:
        print(f"\n{len(FAILURES)} promise(s) of docs/ci.md do not hold (logs in {work})")
        return 1
    print("\nevery recipe does what docs/ci.md says")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

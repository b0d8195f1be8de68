#!/usr/bin/env bash
# scripts/device/visit.sh — runs on the GPU machine (from the repo root) with .carry/ from carry.sh:
#   scripts/device/visit.sh JOB...      JOB: env build smoke smokedir smokecmp planted calibrate gemm fused conv convt convt1d convt3d convts gconv dwconv
#                                        grouped pipeline convpipe kbbase kbcross kbours kbeval kbhead mskb optimize kbbest
#                                        agents corpus pack mskbtune familytorch
# Results go to /tmp/results and, packed (less build folders), to $OUT/results.tgz; each job's Markdown summary also to
# $OUT; more than the 8 files the device tool brings back travel as one $OUT/visit.tgz. A call with a job that
# measures (anything but env, build, calibrate, corpus, profiles, pack) also runs `planted`: once per machine and
# binaries (a later call on the same warm machine says it ran; PLANTED_AGAIN=1 runs it again).
# kbbase (PyTorch eager/torch.compile baselines of suites/kernelbench) and kbcross (the suite against KernelBench's
# own modules; needs KERNELBENCH=1 scripts/device/carry.sh) start no problem after KB_TIME_LIMIT s (500) and pack
# their per-problem results into $OUT/kbbase.tgz / $OUT/kbcross.tgz; carried back (in .carry/) and named by
# KB_RESUME=PATH / KBCROSS_RESUME=PATH, that file lets the next visit go on where this one stopped.
# KB_ONLY=a,b runs only the problems whose names contain a or b. See bench/kernelbench/README.md.
# kbeval: KernelBench's own eval_kernel_against_ref on `ucutlass export --kernelbench` of bench/kernelbench/impl (needs
# KERNELBENCH=1 scripts/device/carry.sh); same KB_TIME_LIMIT (420 here: compiles come first) and KB_ONLY, packs its
# entries and sources into $OUT/kbeval.tgz, resumed from KBEVAL_RESUME=PATH. KBEVAL_IMPL=DIR evaluates DIR's specs
# instead; KBEVAL_PIPELINES=1 the 60 pipeline problems' generated specs (bench/kernelbench/pipelines.py prepare's cases).
# kbhead: the README's headline: kb_eval.py on KB_IMPL (default bench/kernelbench/best_1e-2, every covered problem's
# best spec) over all 152 suite problems, compiles 16 at a time first, then each problem's two verdicts (1e-2 with
# timing, 1e-4) and torch.compile timed beside; KBHEAD_ARGS adds options (e.g. "--no-compile", "--interleave 20");
# then kb_headline.py (the harness column from KBHEAD_HARNESS, default the all-71 report). Starts no problem after
# KB_TIME_LIMIT s (480); packs entries and sources into $OUT/kbhead.tgz, resumed from KBHEAD_RESUME=PATH.
# kbours: `ucutlass bench kernelbench --impl` of KB_IMPL (a folder of <problem>.ucut, default bench/kernelbench/impl)
# with KB_ARGS, PyTorch timed in the same run; its report comes back as $OUT/$KB_NAME.md/json (KB_NAME: kbours).
# optimize: `ucutlass optimize` over OPT_PROBLEMS with OPT_ARGS (e.g. "--budget 12 --iterations 2") into a workspace
# that comes back as $OUT/$OPT_NAME.db (OPT_NAME defaults to optimize); OPT_RESUME=PATH (a carried workspace) resumes
# it. The live log is $OUT/$OPT_NAME-log.txt. Several optimize jobs in one visit need different OPT_NAMEs: run visit.sh
# once per job with its own OPT_* variables.
# kbbest: `ucutlass bench kernelbench --best` on the workspace the last optimize job wrote ($OPT_NAME; without one,
# OPT_RESUME=PATH names a carried workspace), PyTorch eager timed in the same run (KB_ARGS adds options, e.g.
# --no-compile); its report comes back as $OUT/$OPT_NAME-best.md/json.
# profiles: PROFILE_DIR=DIR of <name>.ucut: `ucutlass profile --json` of each on DIR/<name>.toml, else on the suite problem <name>, into
# $OUT/profiles/, and a table of every kernel's duration per launch ($OUT/profiles.md); end the call with `pack` (two
# files per spec: more than the device tool brings back one by one).
# corpus: the profile corpus of bench/profile/corpus.toml (built in parallel, then profiled) into
# $OUT/profile_thresholds.json.
# smoke: every example against its problem (bench/smoke/smoke.py), built in parallel first; SMOKE_SPECS='GLOB' and
# SMOKE_PROBLEM=FILE run other specs against one problem (e.g. bench/smoke/tf32_row_b).
# smokedir: SMOKE_DIR=bench/smoke/X runs each case X/<case>/*.ucut against X/<case>/problem.toml, all built first in
# parallel; the cases' Markdown tables go to $OUT/smoke.md and their JSON into $OUT/smokedir.tgz, rewritten after every
# case (a call cut short keeps what ran); a case that already ran on this warm machine is skipped, so the next call
# goes on (SMOKE_TRIALS: timed runs; SMOKE_RUN_ARGS: more `ucutlass run` arguments, e.g. "--inputs framework").
# smokecmp: the smoke run of SMOKE_ONLY's examples (default all) by the binaries of another commit (.carry/bin/before/, from
# carry.sh's BEFORE=BUILD_DIR) and by this one, example by example in turn, each building its own kernels (their code
# differs at least in comments, so their cache keys do); bench/smoke/compare.py then puts them side by side in
# $OUT/smokecmp.md, every run's smoke.json in $OUT/smokecmp.tgz (BEFORE_NAME / AFTER_NAME label the columns).
# mskbtune: `ucutlass mskb tune` (the launch search of family specs) over MSKB_TASKS (required, comma-separated) from
# MSKB_SPECS (default examples/mskb), MSKB_PRECISION (default both), TUNE_ARGS more options; the winners' specs and
# launchers come back in $OUT/mskbtune.tgz (fp32/, bf16/), for MSKB_IMPL of a later `mskb` job in the same call.
# familytorch: bench/family_torch/check.py — every family spec of examples/mskb/ exported with `--torch`, built (in
# parallel), checked against an FP64 reference and timed beside PyTorch eager and a device copy; FT_ONLY=a,b limits
# the tasks; family_torch.md/json come back in $OUT.
# mskb: `ucutlass bench mskb` (naive vs vendor, plus MSKB_IMPL=DIR candidates) over MSKB_TASKS (default all) and
# MSKB_PRECISION (default both); starts no pair after MSKB_TIME_LIMIT s (480) and packs the per-pair results into
# $OUT/mskb.tgz; carried back and named by MSKB_RESUME=PATH, the next visit goes on where this one stopped.
# agents: the agents end to end with SCRIPTED model turns (bench/agents/scripted_run.py, docs/agents.md "The scripted
# GPU run"): `mskb optimize` (CUDAMaster's four roles) on RELU, sigmoid and gelu, then `optimize --agent orchestrated
# --detector` and `--agent in-prompt` on L1_001 and L2_086, each against bench/agents/scripted_model.py; the GEMM
# kernels compile while the CUDAMaster run measures. $OUT gets agents.md, agents.json, the driver's log and
# agents.tgz (every run's workspace, model-server log, output and report). AGENTS_ARGS adds driver options (e.g.
# "--runs cudamaster", "--deadline-s 420").
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH:$PWD/.carry/bin   # carried tools (ninja) only where the machine lacks them
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$PWD/.carry/lib
# The build cache lives outside the carried tree: a call that finds the machine still warm reuses the kernels the
# previous call built (carry replaces .carry on every call); the carried cache only seeds it.
mkdir -p /tmp/ucut-cache && tar xzf .carry/cache.tgz -C /tmp/ucut-cache --skip-old-files
export UCUT_CACHE_DIR=/tmp/ucut-cache UCUT_DATA_DIR=$PWD/data UCUT_STATE_DIR=/tmp/ucut-state
mkdir -p /tmp/cutlass /tmp/results && tar xzf .carry/cutlass.tgz -C /tmp/cutlass
export CUTLASS_DIR=/tmp/cutlass
[ -f .carry/bin.tgz ] && tar xzf .carry/bin.tgz -C .carry   # carry.sh packs the binaries compressed
chmod +x .carry/bin/*
U=$PWD/.carry/bin/ucutlass
R=/tmp/results
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/log.txt") 2>&1   # the log comes back even when a job is cut short
JOB_TIMEOUT=${JOB_TIMEOUT:-540}
# A visit that measures anything also runs the planted kernels (bench/planted/planted.py), last, unless asked for:
# every measurement comes with the evidence that this harness still catches each known way of cheating.
jobs=("$@")
if [[ " $* " != *" planted "* ]]; then
  for job in "$@"; do
    case $job in env|build|calibrate|pack|corpus|profiles) ;; *) jobs+=(planted); break ;; esac
  done
fi
[[ " ${jobs[*]} " == *" pack "* ]] && { jobs=("${jobs[@]/pack}"); jobs+=(pack); }   # pack stays last
# All of $OUT's files but results.tgz as one visit.tgz (the device tool brings back at most 8 files).
pack_out() {
  (cd "$OUT" && tar czf /tmp/visit.tgz --exclude=./results.tgz . && find . -maxdepth 1 -type f ! -name results.tgz -delete &&
     mv /tmp/visit.tgz .)
}
for job in ${jobs[@]}; do
  echo "=== $job $(date -u +%FT%TZ)"
  case $job in
    build)  # every spec this visit needs (BUILD_SPECS, default the examples and carried work), in parallel: cache hits
            # when nvcc and CUTLASS match the packing machine; BUILD_PACK=1 packs what it built into $OUT/cache.tgz
      $U build -j "$(nproc)" ${BUILD_SPECS:-examples/*.ucut .carry/work/*/*.ucut} > $R/build.txt 2>&1; tail -3 $R/build.txt
      [ -n "${BUILD_PACK:-}" ] && (cd $UCUT_CACHE_DIR && find . -name kernel.so -printf '%h\n' | tar czf "$OUT/cache.tgz" -T -) ;;
    env)
      { nvidia-smi; nvcc --version; command -v ninja; ldd .carry/bin/ucutlass-worker; python3 -c 'import torch; print(torch.__version__, torch.version.cuda)'; } > $R/env.txt 2>&1
      tail -5 $R/env.txt ;;
    smoke) specs=${SMOKE_SPECS:-examples/*.ucut}
          $U build -j "$(nproc)" $specs > $R/smoke-build.txt 2>&1; tail -3 $R/smoke-build.txt   # in parallel, before the runs
          python3 bench/smoke/smoke.py --ucutlass $U --out $R/smoke --specs "$specs" ${SMOKE_PROBLEM:+--problem $SMOKE_PROBLEM} \
            ${SMOKE_FROM:+--from $SMOKE_FROM} ${SMOKE_ONLY:+--only $SMOKE_ONLY}; cp $R/smoke/smoke.md $R/smoke/smoke.json "$OUT/" ;;
    smokedir) dir=${SMOKE_DIR:?smokedir needs SMOKE_DIR=a folder of <case>/problem.toml + <case>/*.ucut}
          $U build -j "$(nproc)" $dir/*/*.ucut > $R/smoke-build.txt 2>&1; tail -3 $R/smoke-build.txt   # every case's specs at once
          : > "$OUT/smoke.md"
          for case in $dir/*/; do c=$(basename $case)
            if [ -f $R/smoke/$c/smoke.json ]; then echo "smokedir: $c ran in an earlier call on this machine"; continue; fi
            python3 bench/smoke/smoke.py --ucutlass $U --out $R/smoke/$c --specs "$case*.ucut" --problem ${case}problem.toml ${SMOKE_TRIALS:+--trials $SMOKE_TRIALS} \
              ${SMOKE_RUN_ARGS:+--run-args "$SMOKE_RUN_ARGS"}
            cat $R/smoke/$c/smoke.md >> "$OUT/smoke.md"
            tar czf "$OUT/smokedir.tgz" -C $R smoke; done ;;  # every case's smoke.json so far: a call cut short keeps them
    smokecmp) B=$PWD/.carry/bin/before/ucutlass; chmod +x .carry/bin/before/*; specs=${SMOKE_SPECS:-examples/*.ucut}
          list=$(for s in $specs; do n=$(basename "$s" .ucut); [ -z "${SMOKE_ONLY:-}" ] || [[ ",$SMOKE_ONLY," == *",$n,"* ]] && echo "$s"; done)
          n=$(nproc); $B build -j $((n / 2)) $list > $R/smoke-build-before.txt 2>&1 & before=$!
          $U build -j $((n - n / 2)) $list > $R/smoke-build.txt 2>&1; wait $before   # not the log's tee: a bare wait would hang
          tail -2 $R/smoke-build-before.txt $R/smoke-build.txt
          for s in $list; do e=$(basename "$s" .ucut)
            python3 bench/smoke/smoke.py --ucutlass $B --out $R/smokecmp/before/$e --only $e ${SMOKE_TRIALS:+--trials $SMOKE_TRIALS}
            python3 bench/smoke/smoke.py --ucutlass $U --out $R/smokecmp/after/$e --only $e ${SMOKE_TRIALS:+--trials $SMOKE_TRIALS}; done
          python3 bench/smoke/compare.py --before $R/smokecmp/before/* --after $R/smokecmp/after/* --out $R/smokecmp \
            --before-name "${BEFORE_NAME:-before}" --after-name "${AFTER_NAME:-after}"
          cp $R/smokecmp/compare.md "$OUT/smokecmp.md"; tar czf "$OUT/smokecmp.tgz" -C $R smokecmp ;;
    planted) # once per machine, binaries and judge (planted.py): a later call on the same warm machine with the same ones says
          # where the result is rather than spending a minute again (a fresh machine has no stamp)
          stamp=$(cat .carry/bin/ucutlass .carry/bin/ucutlass-worker .carry/planted/*.so bench/planted/planted.py | sha256sum | cut -c1-16)
          if [ "$(cat /tmp/planted.stamp 2>/dev/null)" = "$stamp" ] && [ -z "${PLANTED_AGAIN:-}" ]; then
            echo "planted: already run on this machine with these binaries ($stamp): $(grep -c '^| .* | pass |$' $R/planted/planted.md) passed, in the first call's \$OUT"
          else
            python3 bench/planted/planted.py --ucutlass $U --planted .carry/planted --out $R/planted && echo $stamp > /tmp/planted.stamp
            cp $R/planted/planted.md $R/planted/planted.json "$OUT/"
          fi ;;
    calibrate) $U calibrate --json > $R/calibrate.json 2> $R/calibrate.err; cat $R/calibrate.json | head -40 ;;
    gemm) timeout $JOB_TIMEOUT python3 -u bench/gemm_vs_cublas/bench.py run --ucutlass $U --work .carry/work/gemm --out $R/gemm ${GEMM_ONLY:+--only $GEMM_ONLY}
          cp $R/gemm/* "$OUT/" ;;
    conv|convt|convt1d|convt3d|convts|gconv|dwconv)
          case $job in conv) suite=conv2d ;; convt) suite=conv_transpose2d ;; convt1d) suite=conv_transpose1d ;;
                       convt3d) suite=conv_transpose3d ;; convts) suite=conv_transpose2d_strided ;; gconv) suite=grouped_conv2d ;; *) suite=depthwise_conv2d ;; esac
          torch_json=""
          if [ $job = gconv ] || [ $job = dwconv ]; then
            torch_json=$R/conv/${suite}_torch.json; mkdir -p $R/conv
            python3 bench/conv_vs_cudnn/torch_conv_baselines.py .carry/work/conv/$suite.toml > $torch_json
          fi
          timeout $JOB_TIMEOUT python3 -u bench/conv_vs_cudnn/bench.py run --suite $suite ${torch_json:+--torch $torch_json} --ucutlass $U --work .carry/work/conv --out $R/conv ${CONV_ONLY:+--only $CONV_ONLY} ${CONV_MERGE:+--merge $CONV_MERGE}
          cp $R/conv/* "$OUT/" ;;
    grouped) for suite in bf16 f16_relu; do
               timeout $JOB_TIMEOUT python3 -u bench/grouped_gemm/bench.py run --suite $suite --ucutlass $U --work .carry/work/grouped --out $R/grouped ${GROUPED_ONLY:+--only $GROUPED_ONLY}
             done
             cp $R/grouped/* "$OUT/" ;;
    pipeline|convpipe) suite=mlp; [ $job = convpipe ] && suite=conv
          timeout $JOB_TIMEOUT python3 -u bench/pipeline/bench.py run --suite $suite --ucutlass $U --work .carry/work/pipeline --out $R/pipeline; cp $R/pipeline/* "$OUT/" ;;
    fused) timeout $JOB_TIMEOUT python3 -u bench/fused_epilogue/bench.py run --ucutlass $U --work .carry/work/fused --out $R/fused; cp $R/fused/* "$OUT/" ;;
    kbbase) mkdir -p $R/kernelbench
          [ -n "${KB_RESUME:-}" ] && tar xzf "$KB_RESUME" -C $R/kernelbench problems
          timeout $JOB_TIMEOUT python3 -u bench/kernelbench/baseline.py suites/kernelbench --ucutlass $U --out $R/kernelbench --jobs 8 --skip-done --time-limit ${KB_TIME_LIMIT:-500} ${KB_ONLY:+--only $KB_ONLY} \
            || python3 bench/kernelbench/baseline.py suites/kernelbench --ucutlass $U --out $R/kernelbench --report-only ${KB_ONLY:+--only $KB_ONLY}
          cp $R/kernelbench/baseline.md $R/kernelbench/baseline.json "$OUT/"; tar czf "$OUT/kbbase.tgz" -C $R/kernelbench problems ;;
    kbcross) mkdir -p $R/kbcross
          [ -n "${KBCROSS_RESUME:-}" ] && tar xzf "$KBCROSS_RESUME" -C $R/kbcross problems
          timeout $JOB_TIMEOUT python3 -u bench/kernelbench/crosscheck.py suites/kernelbench --ucutlass $U --kernelbench .carry/kernelbench/KernelBench --out $R/kbcross --skip-done --time-limit ${KB_TIME_LIMIT:-500} ${KB_ONLY:+--only $KB_ONLY}
          cp $R/kbcross/crosscheck.md $R/kbcross/crosscheck.json "$OUT/"; tar czf "$OUT/kbcross.tgz" -C $R/kbcross problems ;;
    kbours) n=${KB_NAME:-kbours}; mkdir -p $R/$n  # our kernels (KB_IMPL, default bench/kernelbench/impl), PyTorch timed in the same run
          timeout $JOB_TIMEOUT $U bench kernelbench --impl ${KB_IMPL:-bench/kernelbench/impl} --out $R/$n ${KB_ONLY:+--only ${KB_ONLY//,/ }} ${KB_ARGS:-} > $R/$n/log.txt 2>&1
          tail -30 $R/$n/log.txt; cp $R/$n/kernelbench.md "$OUT/$n.md"; cp $R/$n/kernelbench.json "$OUT/$n.json" ;;
    kbeval) mkdir -p $R/kbeval  # our kernels as KernelBench ModelNew sources, through KernelBench's own eval
          [ -n "${KBEVAL_RESUME:-}" ] && tar xzf "$KBEVAL_RESUME" -C $R/kbeval problems
          if [ -n "${KBEVAL_PIPELINES:-}" ]; then
            python3 bench/kernelbench/pipelines.py prepare --ucutlass $U --out $R/kbpipe && KBEVAL_IMPL=$R/kbpipe/cases
          fi
          timeout $JOB_TIMEOUT python3 -u bench/kernelbench/kb_eval.py --ucutlass $U --kernelbench .carry/kernelbench --out $R/kbeval --jobs 8 --skip-done --time-limit ${KB_TIME_LIMIT:-420} ${KB_ONLY:+--only $KB_ONLY} ${KBEVAL_IMPL:+--impl $KBEVAL_IMPL} \
            || python3 bench/kernelbench/kb_eval.py --out $R/kbeval --report-only
          cp $R/kbeval/kb_eval.md $R/kbeval/kb_eval.json "$OUT/"; tar czf "$OUT/kbeval.tgz" -C $R/kbeval problems sources logs ;;
    kbhead) mkdir -p $R/kbhead  # every covered problem's best spec through KernelBench's own eval, and the headline
          [ -n "${KBHEAD_RESUME:-}" ] && tar xzf "$KBHEAD_RESUME" -C $R/kbhead problems
          timeout $JOB_TIMEOUT python3 -u bench/kernelbench/kb_eval.py --ucutlass $U --kernelbench .carry/kernelbench --out $R/kbhead \
            --impl ${KB_IMPL:-bench/kernelbench/best_1e-2} --jobs 16 --skip-done --time-limit ${KB_TIME_LIMIT:-480} ${KB_ONLY:+--only $KB_ONLY} ${KBHEAD_ARGS:-} \
            > "$OUT/kbhead-log.txt" 2>&1 || python3 bench/kernelbench/kb_eval.py --out $R/kbhead --report-only
          tail -20 "$OUT/kbhead-log.txt"
          python3 bench/kernelbench/kb_headline.py $R/kbhead/kb_eval.json --out $R/kbhead \
            --harness-1e-2 ${KBHEAD_HARNESS:-bench/results/optimize_1e-2_phases/all-71/kernelbench.json} && cat $R/kbhead/headline.md
          cp $R/kbhead/kb_eval.md $R/kbhead/kb_eval.json $R/kbhead/headline.md $R/kbhead/headline.json "$OUT/"
          tar czf "$OUT/kbhead.tgz" -C $R/kbhead problems sources logs ;;
    mskb) mkdir -p $R/mskb
          [ -n "${MSKB_RESUME:-}" ] && tar xzf "$MSKB_RESUME" -C $R/mskb pairs
          timeout $JOB_TIMEOUT $U bench mskb --verbose --out $R/mskb --resume --time-limit ${MSKB_TIME_LIMIT:-480} -j "$(nproc)" \
            ${MSKB_IMPL:+--impl $MSKB_IMPL} ${MSKB_TASKS:+--task ${MSKB_TASKS//,/ }} ${MSKB_PRECISION:+--precision ${MSKB_PRECISION//,/ }} \
            ${MSKB_ARGS:-} > "$OUT/mskb-log.txt" 2>&1   # written straight to \$OUT: it comes back even when the visit is cut short
          grep -v '^\[ucutlass-mskb-worker\]' "$OUT/mskb-log.txt" | tail -40; cp $R/mskb/mskb.md $R/mskb/mskb.json "$OUT/"; tar czf "$OUT/mskb.tgz" -C $R/mskb pairs ;;
    mskbtune) mkdir -p $R/mskbtune  # `ucutlass mskb tune` of MSKB_TASKS' specs (MSKB_SPECS, default examples/mskb)
          timeout $JOB_TIMEOUT $U mskb tune ${MSKB_TASKS//,/ } --verbose --out $R/mskbtune -j "$(nproc)" \
            --time-limit ${MSKB_TIME_LIMIT:-420} ${MSKB_SPECS:+--specs $MSKB_SPECS} \
            ${MSKB_PRECISION:+--precision ${MSKB_PRECISION//,/ }} ${TUNE_ARGS:-} > "$OUT/mskbtune-log.txt" 2>&1
          grep -v '^\[ucutlass-mskb-worker\]' "$OUT/mskbtune-log.txt" | tail -40; cp $R/mskbtune/tune.md $R/mskbtune/tune.json "$OUT/"
          tar czf "$OUT/mskbtune.tgz" -C $R/mskbtune fp32 bf16 --ignore-failed-read ;;
    familytorch) mkdir -p $R/family_torch  # `export --torch` of every family spec vs FP64 and PyTorch eager
          timeout $JOB_TIMEOUT python3 -u bench/family_torch/check.py --ucutlass $U --work /tmp/family-torch \
            --out $R/family_torch ${FT_ONLY:+--only $FT_ONLY} > "$OUT/familytorch-log.txt" 2>&1
          tail -45 "$OUT/familytorch-log.txt"; cp $R/family_torch/family_torch.md $R/family_torch/family_torch.json "$OUT/" ;;
    optimize) n=${OPT_NAME:-optimize}; mkdir -p $R/$n  # `ucutlass optimize` over OPT_PROBLEMS into one workspace
          [ -n "${OPT_RESUME:-}" ] && cp "$OPT_RESUME" $R/$n/w.db
          timeout $JOB_TIMEOUT $U optimize ${OPT_PROBLEMS:-suites/kernelbench} --workspace $R/$n/w.db -j "$(nproc)" \
            ${OPT_ARGS:-} > $R/$n/optimize.md 2> "$OUT/$n-log.txt"
          $U workspace show $R/$n/w.db   # a clean open and close folds the WAL (a run cut short) into w.db
          cat $R/$n/optimize.md; cp $R/$n/optimize.md "$OUT/$n.md"; cp $R/$n/w.db "$OUT/$n.db" ;;
    kbbest) n=${OPT_NAME:-optimize}; mkdir -p $R/$n-best $R/$n
          [ -f $R/$n/w.db ] || cp "${OPT_RESUME:?kbbest needs the optimize job first, or OPT_RESUME=a carried workspace}" $R/$n/w.db
          timeout $JOB_TIMEOUT $U bench kernelbench --best $R/$n/w.db --out $R/$n-best ${KB_ARGS:-} > $R/$n-best/log.txt 2>&1
          tail -40 $R/$n-best/log.txt; cp $R/$n-best/kernelbench.md "$OUT/$n-best.md"; cp $R/$n-best/kernelbench.json "$OUT/$n-best.json" ;;
    agents) a=/tmp/agents; rm -rf $a  # outside $R: its workspaces travel once, in agents.tgz
          timeout $JOB_TIMEOUT python3 -u bench/agents/scripted_run.py --ucutlass $U --out $a ${AGENTS_ARGS:-} \
            > "$OUT/agents-log.txt" 2>&1   # straight to \$OUT: it comes back even when cut short
          tail -5 "$OUT/agents-log.txt"; sed -n '/^| run /,/^$/p' $a/agents.md
          cp $a/agents.md $a/agents.json "$OUT/"; tar czf "$OUT/agents.tgz" -C /tmp agents ;;
    corpus) mkdir -p $R/corpus  # the profile corpus (bench/profile/corpus.toml): built in parallel, then profiled
          timeout $JOB_TIMEOUT $U profile-corpus bench/profile/corpus.toml -j "$(nproc)" \
            --out $R/corpus/profile_thresholds.json > "$OUT/corpus-log.txt" 2>&1
          tail -15 "$OUT/corpus-log.txt"; cp $R/corpus/profile_thresholds.json "$OUT/" ;;
    profiles) dir=${PROFILE_DIR:?profiles needs PROFILE_DIR=a folder of <suite problem name>.ucut}
          mkdir -p "$OUT/profiles"  # each spec's `ucutlass profile` on its suite problem: every kernel of one launch, timed
          $U build -j "$(nproc)" $dir/*.ucut > $R/profiles-build.txt 2>&1; tail -3 $R/profiles-build.txt
          for spec in $dir/*.ucut; do name=$(basename $spec .ucut)
            problem=$dir/$name.toml; [ -f $problem ] || problem=$(ls suites/kernelbench/level*/$name.toml)
            timeout ${PROFILE_TIMEOUT:-240} $U profile $spec --problem $problem --json > "$OUT/profiles/$name.json" 2> "$OUT/profiles/$name.err"
          done
          python3 scripts/device/profile_table.py "$OUT"/profiles/*.json | tee "$OUT/profiles.md" ;;
    pack) pack_out ;;
    *) echo "unknown job $job" ;;
  esac
done
# Everything the jobs wrote, less the build folders (KernelBench's extensions: 100 MB, over what comes back).
tar czf "$OUT/results.tgz" -C /tmp --exclude='results/*/build' results
# The device tool brings back 8 files: with more, all but results.tgz travel as one visit.tgz.
[ "$(find "$OUT" -maxdepth 1 -type f | wc -l)" -gt 8 ] && pack_out
ls -la "$OUT"

#!/usr/bin/env bash
# Copyright 2026 The gotrace Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
################################################################################
# presubmit-check.sh: offline equivalent of google/oss-fuzz's infra/presubmit.py checks on
# the files gotrace would submit (ci/oss-fuzz/ as projects/gotrace/) and on .clusterfuzzlite/:
#   - check_license: every Dockerfile and *.sh carries the Apache-2.0 license URL;
#   - check_project_yaml: only known section names, main_repo and language present, language,
#     sanitizers, architectures and fuzzing_engines among infra/constants.py's values (a
#     sanitizer may be a one-key mapping such as `memory: {experimental: True}`), emails that
#     look like emails;
#   - check_lib_fuzzing_engine: no -lFuzzingEngine outside comments in build.sh;
#   - check_seed_corpus: no committed .zip.
# The lists below are those of infra/presubmit.py and infra/constants.py as read in 2026.
#
#   bash ci/oss-fuzz/presubmit-check.sh      exit 0 when every check passes
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
license='http://www.apache.org/licenses/LICENSE-2.0'
sections=" architectures auto_ccs blackbox builds_per_day coverage_extra_args disabled
 fuzzing_engines help_url homepage language labels main_repo primary_contact run_tests
 sanitizers selective_unpack vendor_ccs view_restrictions file_github_issue "
languages=" c c++ go javascript jvm python rust swift ruby "
sanitizers=" address none memory undefined thread coverage introspector hwaddress "
architectures=" i386 x86_64 aarch64 "
engines=" libfuzzer afl honggfuzz centipede none "
fail=0
err() { echo "presubmit-check: $*" >&2; fail=1; }

for f in ci/oss-fuzz/Dockerfile ci/oss-fuzz/*.sh .clusterfuzzlite/Dockerfile .clusterfuzzlite/*.sh; do
    [ -f "$f" ] || continue
    grep -qF "$license" "$f" || err "missing license header in $f"
done

# check_project_yaml on a YAML file as simple as ours: top-level `key: value` or `key:` then
# `  - item` / `  - item:` lines.
check_yaml() {
    local y=$1 key item section=""
    [ -f "$y" ] || return 0
    while IFS= read -r line; do
        case $line in
            '#'* | '') continue ;;
            [a-z_]*:*)
                key=${line%%:*}
                section=$key
                case $sections in *" $key "*) ;; *) err "$y: $key is not a valid section name" ;; esac
                if [ "$key" = language ]; then
                    item=$(echo "${line#*:}" | tr -d ' "')
                    case $languages in *" $item "*) ;; *) err "$y: language $item is not supported" ;; esac
                fi
                if [ "$key" = primary_contact ]; then
                    item=$(echo "${line#*:}" | tr -d ' "')
                    case $item in *@*.*|*.*@*) ;; *) err "$y: $item is an invalid email address" ;; esac
                fi
                ;;
            '  - '*)
                item=${line#  - }
                item=${item%%:*}
                item=$(echo "$item" | tr -d ' "')
                case $section in
                    sanitizers) list=$sanitizers ;;
                    architectures) list=$architectures ;;
                    fuzzing_engines) list=$engines ;;
                    auto_ccs)
                        case $item in *@*.*|*.*@*) ;; *) err "$y: $item is an invalid email address" ;; esac
                        continue ;;
                    *) continue ;;
                esac
                case $list in *" $item "*) ;; *) err "$y: $item (in $section) is not a valid constant" ;; esac
                ;;
        esac
    done <"$y"
    grep -q '^main_repo:' "$y" || [ "$y" != ci/oss-fuzz/project.yaml ] || err "$y: main_repo section is missing"
    grep -q '^language:' "$y" || err "$y: missing \"language\" attribute"
}
check_yaml ci/oss-fuzz/project.yaml
check_yaml .clusterfuzzlite/project.yaml

if sed 's/#.*//' ci/oss-fuzz/build.sh | grep -q -- '-lFuzzingEngine'; then
    err "ci/oss-fuzz/build.sh uses the deprecated -lFuzzingEngine"
fi
if ls ci/oss-fuzz/*.zip >/dev/null 2>&1; then
    err "a seed corpus .zip is committed in ci/oss-fuzz/"
fi

[ "$fail" -eq 0 ] && echo "presubmit-check: ok (license, project.yaml, LIB_FUZZING_ENGINE, seed corpus)"
exit "$fail"

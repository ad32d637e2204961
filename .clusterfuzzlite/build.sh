#!/bin/bash -eu
# ClusterFuzzLite build: the OSS-Fuzz script, unchanged, so both stay in step.
exec "$SRC/gotrace/ci/oss-fuzz/build.sh"

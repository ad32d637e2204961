#!/bin/bash -eu
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
#
# (These OSS-Fuzz integration files are under Apache-2.0, as google/oss-fuzz requires of
# the files in its projects/ folder; the rest of gotrace is BSD-3-Clause.)
################################################################################
# ClusterFuzzLite build: the OSS-Fuzz script, unchanged, so both stay in step.
exec "$SRC/gotrace/ci/oss-fuzz/build.sh"

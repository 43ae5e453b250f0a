# shellcheck shell=bash disable=SC2164 # steps typed at a prompt, where a cd that fails stops the reader
make dist                       # dist/ulid-<version>.zip from the committed HEAD (git archive)
# on the server (with postgresql-server-dev-15, build-essential and unzip installed):
unzip dist/ulid-*.zip && cd ulid-*/
make && make install

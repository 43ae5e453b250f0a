make dist                       # dist/ulid-<version>.zip from the committed HEAD (git archive)
# on the server (with postgresql-server-dev-15, build-essential and unzip installed):
unzip dist/ulid-*.zip && cd ulid-*/
make && make install

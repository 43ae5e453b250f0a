apt-get install postgresql-15 postgresql-server-dev-15 postgresql-contrib build-essential
make                  # or: make PG_CONFIG=/path/to/pg_config (another server)
make install          # into the server's extension directory

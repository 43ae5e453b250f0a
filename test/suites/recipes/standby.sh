# Recipe: a streaming hot standby, copied from the running primary as the OS user that runs the
# server: -R writes the connection to the primary into the standby's configuration, -X stream
# copies the WAL written meanwhile, -c fast checkpoints at once. Then start the standby.
pg_basebackup -h "$PRIMARY_HOST" -p "$PRIMARY_PORT" -U postgres -D "$STANDBY_DATA" -R -X stream -c fast

-- ulid 0.4.0+refresh -> 0.4.0: the way back of the refresh round trip (nothing to change).
--
-- '0.4.0+refresh' has exactly the objects of 0.4.0; ulid--0.4.0--0.4.0+refresh.sql (made by
-- src/sql/assemble.sh) did the work. This edge only brings the recorded version back to 0.4.0, so
-- that the next release's update scripts start from it (docs/upgrading.md).

\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit

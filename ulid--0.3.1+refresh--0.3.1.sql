-- ulid 0.3.1+refresh -> 0.3.1: the way back of the refresh round trip (nothing to change).
--
-- '0.3.1+refresh' has exactly the objects of 0.3.1; ulid--0.3.1--0.3.1+refresh.sql (made by
-- src/sql/assemble.sh) did the work. This edge only brings the recorded version back to 0.3.1, so
-- that the next release's update scripts start from it (docs/upgrading.md).

\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit

-- ulid 0.2.1+refresh -> 0.2.1: the way back of the refresh round trip (nothing to change).
--
-- '0.2.1+refresh' has exactly the objects of 0.2.1; ulid--0.2.1--0.2.1+refresh.sql (made from
-- src/sql/update-to-0.2.1.sql) did the work. This edge only brings the recorded version back to
-- 0.2.1, so that the next release's update scripts start from it (docs/upgrading.md).

\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit

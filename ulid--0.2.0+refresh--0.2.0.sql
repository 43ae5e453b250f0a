-- ulid 0.2.0+refresh -> 0.2.0: the way back of the refresh round trip (nothing to change).
--
-- '0.2.0+refresh' has exactly the objects of 0.2.0; ulid--0.2.0--0.2.0+refresh.sql did the work.
-- This edge only brings the recorded version back to 0.2.0, so that the next release's update
-- scripts start from it (README, "Upgrading").

\echo Use "ALTER EXTENSION ulid UPDATE" to load this file. \quit

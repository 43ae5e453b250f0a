-- Soft input errors (PostgreSQL 16+): pg_input_is_valid and pg_input_error_info report instead of
-- raising. expected/input_valid_1.out is the output on 15 and earlier, where these do not exist.
SELECT pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid');
SELECT pg_input_is_valid('01arz3ndektsv4rrffq69g5fav', 'ulid');
SELECT pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'ulid');
SELECT pg_input_is_valid('81ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid');
SELECT pg_input_is_valid('short', 'ulid');
SELECT * FROM pg_input_error_info('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'ulid');
SELECT * FROM pg_input_error_info('81ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid');
SELECT * FROM pg_input_error_info('short', 'ulid');

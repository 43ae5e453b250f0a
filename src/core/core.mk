# The pure C++ core as every build compiles it: its sources and headers, its language level and the
# warnings it must build without. Included by the top-level Makefile (PGXS, ulid.so),
# test/unit/Makefile and test/fuzz/Makefile; each adds its own flags (PostgreSQL's, -Werror,
# sanitizers, coverage, fuzzer). Paths are as the includer names this file: relative to the
# top-level directory from the top-level Makefile (as PGXS wants its objects), absolute from the
# test Makefiles.
ULID_CORE_DIR   := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ULID_CORE_SRCS  := $(wildcard $(ULID_CORE_DIR)/*.cpp)
ULID_CORE_HDRS  := $(wildcard $(ULID_CORE_DIR)/*.hpp)
ULID_CXXSTD     := -std=c++17
ULID_CXXWARN    := -Wall -Wextra

# PGXS build of the ulid extension: a C++17 core (src/core) and its PostgreSQL glue (src/pg).
EXTENSION    = ulid
EXTVERSION   = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" ulid.control)
MODULE_big   = ulid
# SQL scripts: those of 0.1.0, 0.2.0 and the install script of 0.2.1 are committed files; from 0.2.1
# on, each release has one idempotent body, src/sql/update-to-<version>.sql, and the scripts below
# are made from those bodies by src/sql/assemble.sh, which also derives their list from the bodies
# (a release adds its body, never a name here). A released script never changes:
# test/lib/released_scripts.sha256 pins every one, committed or made.
BUILT_SCRIPTS := $(shell sh src/sql/assemble.sh --list .)
DATA_built   = $(foreach s,$(BUILT_SCRIPTS),ulid--$(s).sql)
DATA         = $(filter-out $(DATA_built),$(wildcard ulid--*.sql))
include src/core/core.mk
CORE_SRCS    = $(ULID_CORE_SRCS)
PG_SRCS      = $(wildcard src/pg/*.cpp)
OBJS         = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

# pg_regress: one topic per file in sql/, expected output in expected/ (setup runs first).
REGRESS      = setup io casts operators crosstype timestamp time_range btree hash brin brin_multi aggregates generators \
               monotonic copy_binary input_valid copy_on_error public_ids extension
REGRESS_OPTS = --load-extension=ulid --encoding=UTF8

# TAP suites: t/*.pl on PostgreSQL's own framework (PostgreSQL::Test::Cluster), each starting the
# servers it needs; `make installcheck` runs them after pg_regress, against the installed server
# (`make installcheck REGRESS= PROVE_TESTS=t/010_crash_recovery.pl` runs one alone). They need a
# server configured with --enable-tap-tests (Debian's packages are), Perl's IPC::Run
# (libipc-run-perl), and a user other than root in a tree that user can write: initdb refuses
# root, so as root `make installcheck` (and `pgxn check`) runs pg_regress alone (scripts/test runs
# the TAP suites as the user postgres). TAP_TESTS set empty in the environment leaves them out
# (debian/rules does).
ifeq ($(shell id -u),0)
TAP_TESTS   ?=
else
TAP_TESTS   ?= 1
endif

PG_CONFIG   ?= pg_config

PG_CPPFLAGS  = -Isrc -DULID_VERSION='"$(EXTVERSION)"'
# The core's language level and warnings (src/core/core.mk), then what PostgreSQL's headers need:
# -Wno-register because its spinlock header (s_lock.h) still says `register`, which C++17 removed.
PG_CXXFLAGS  = $(ULID_CXXSTD) $(ULID_CXXWARN) -Wno-unused-parameter -Wno-missing-field-initializers \
               -Wno-register
# Warnings are errors in our own test and CI builds (scripts/test sets ULID_WERROR=1), not for
# packagers and users building with their own compiler and flags.
ULID_WERROR ?= 0
ifeq ($(ULID_WERROR),1)
PG_CXXFLAGS += -Werror
endif

SHLIB_LINK   = -lstdc++

# make ULID_TEST_THROW=1: a test-only build of the same code with one more SQL-callable function,
# ulid_test_throw(text), whose body throws C++ exceptions (src/pg/test_throw.cpp), for
# t/300_exception_wall.pl. It is named ulid_test_throw.so, so it never replaces ulid.so, binds
# its own symbols first (-Bsymbolic: a backend that also loaded ulid.so runs this library's code),
# and it cannot be installed; no install script declares the function.
ifdef ULID_TEST_THROW
MODULE_big   = ulid_test_throw
PG_CPPFLAGS += -DULID_TEST_THROW
SHLIB_LINK  += -Wl,-Bsymbolic
endif

# make ULID_TEST_LAYOUT=N: a test-only build whose server-wide state of gen_monotonic_ulid() claims
# layout N (src/pg/shared_state.cpp), named ulid_test_layout.so and never installed, for
# t/160_monotonic_shared.pl: loaded beside ulid.so in one server, one of them must refuse.
ifdef ULID_TEST_LAYOUT
MODULE_big   = ulid_test_layout
PG_CPPFLAGS += -DULID_TEST_LAYOUT=$(ULID_TEST_LAYOUT)
SHLIB_LINK  += -Wl,-Bsymbolic
endif

# make ULID_TEST_NO_OPENSSL=1: a test-only build that behaves as on a server built without OpenSSL
# (ulid_encrypt() and ulid_decrypt() raise 0A000; src/pg/public_id.cpp), named
# ulid_test_no_openssl.so and never installed, for t/170_public_ids.pl.
ifdef ULID_TEST_NO_OPENSSL
MODULE_big   = ulid_test_no_openssl
PG_CPPFLAGS += -DULID_TEST_NO_OPENSSL
SHLIB_LINK  += -Wl,-Bsymbolic
endif

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Built in this directory only: every path above is relative to it (the sources are found with
# $(wildcard)), so a VPATH build from another directory (make -f .../Makefile, or VPATH=...) would
# find no sources. PGXS sets srcdir to this file's directory or to VPATH; refuse any other than here.
ifneq ($(abspath $(srcdir)),$(CURDIR))
$(error the ulid Makefile builds in its own directory only: run make -C $(abspath $(srcdir)) instead of a VPATH build in $(CURDIR))
endif

# PGXS tracks header dependencies only when PostgreSQL was configured with --enable-depend; ours
# are few, so every object depends on all of them.
$(OBJS) $(OBJS:.o=.bc): $(ULID_CORE_HDRS) $(wildcard src/pg/*.hpp src/pg/*.h)

# One tree, one flavour at a time: .build-flavour names what the objects and bitcode in the tree
# were compiled for (the test-only flags above, and the server whose headers they saw). When a
# make asks for another flavour, the stamp is rewritten and every object and .bc file is compiled
# again, so a test-only build's code never reaches ulid.so or an installed .bc file, and objects
# of another server's headers are never linked.
ULID_FLAVOUR = $(if $(ULID_TEST_THROW),test-throw,$(if $(ULID_TEST_LAYOUT),test-layout-$(ULID_TEST_LAYOUT),$(if $(ULID_TEST_NO_OPENSSL),test-no-openssl,normal))) $(bindir) $(VERSION)
FLAVOUR_STAMP = .build-flavour
EXTRA_CLEAN += $(FLAVOUR_STAMP)
$(OBJS) $(OBJS:.o=.bc): $(FLAVOUR_STAMP)
.PHONY: flavour-check
$(FLAVOUR_STAMP): flavour-check
	@if [ "$$(cat $@ 2>/dev/null)" != "$(ULID_FLAVOUR)" ]; then echo "$(ULID_FLAVOUR)" >$@; fi

ifneq ($(ULID_TEST_THROW)$(ULID_TEST_LAYOUT)$(ULID_TEST_NO_OPENSSL),)
install: refuse-test-install
.PHONY: refuse-test-install
refuse-test-install:
	@echo "make install: ULID_TEST_THROW / ULID_TEST_LAYOUT / ULID_TEST_NO_OPENSSL make test-only builds; they are never installed" >&2; exit 1
endif

$(DATA_built): src/sql/assemble.sh $(wildcard src/sql/update-to-*.sql) ulid--0.2.1.sql
	sh src/sql/assemble.sh . $@

# The JIT bitcode of the C++ sources needs the same language level.
override BITCODE_CXXFLAGS += $(ULID_CXXSTD) -Wno-register

.PHONY: unit
unit:
	$(MAKE) -C test/unit run

# ---- make dist: the release archive for PGXN (test/suites/packaging.pl checks it) ----------------
# dist/ulid-<version>.zip made by `git archive` from the committed HEAD, every path under
# ulid-<version>/; <version> is default_version in ulid.control, which META.json must repeat for the
# release and for provides.ulid (the target refuses otherwise). DIST_REF and DIST_DIR override
# the commit and the output directory.
DIST_REF ?= HEAD
DIST_DIR ?= dist
DIST_NAME = $(EXTENSION)-$(EXTVERSION)

.PHONY: dist
dist:
	@test "$$(git show "$(DIST_REF):META.json" | grep -Ec '"version" *: *"$(EXTVERSION)"')" -ge 2 || \
		{ echo "make dist: META.json at $(DIST_REF) does not give version $(EXTVERSION) (ulid.control) to the release and to provides" >&2; exit 1; }
	@mkdir -p "$(DIST_DIR)"
	git archive --format=zip --prefix="$(DIST_NAME)/" -o "$(DIST_DIR)/$(DIST_NAME).zip" "$(DIST_REF)"
# ---- end of make dist ----------------------------------------------------------------------------

// Build guard: included last by every src/core .cpp, it fails the build if PostgreSQL leaked in.
#pragma once

#if defined(POSTGRES_H) || defined(PG_VERSION_NUM) || defined(C_H)
#error "src/core is pure C++17: no PostgreSQL header may reach it (include it only from src/pg)"
#endif

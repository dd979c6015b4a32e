// Internal: GRAPPI_HIDDEN marks the private state classes nested in exported public classes
// (KnowledgeGraph::Impl, PCSTSolver::Impl, ...), which would otherwise inherit the enclosing
// class's default visibility and be exported with it.
#pragma once

#if defined(_WIN32)
#define GRAPPI_HIDDEN
#else
#define GRAPPI_HIDDEN __attribute__((visibility("hidden")))
#endif

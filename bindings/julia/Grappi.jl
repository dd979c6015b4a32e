# Grappi.jl — a small Julia module over grappi's C API (libgrappi_c) using ccall.
# Julia cannot be installed on the project's build machines, so this module is NOT tested in CI;
# it follows the C header exactly and is kept deliberately small. Set GRAPPI_LIB to the path of
# libgrappi_c.so before loading.
module Grappi

const libgrappi_c = get(ENV, "GRAPPI_LIB", "libgrappi_c")

struct GrappiError <: Exception
    status::Int32
    message::String
end
Base.showerror(io::IO, e::GrappiError) = print(io, "grappi error ", e.status, ": ", e.message)

function check(status::Int32)
    status == 0 && return nothing
    msg = unsafe_string(ccall((:grappi_last_error_message, libgrappi_c), Cstring, ()))
    throw(GrappiError(status, msg))
end

version() = unsafe_string(ccall((:grappi_version_string, libgrappi_c), Cstring, ()))

"A knowledge-graph database; closed by its finalizer or by close(g)."
mutable struct Graph
    handle::Ptr{Cvoid}
    function Graph(path::AbstractString)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:grappi_graph_open, libgrappi_c), Int32, (Cstring, Ptr{Cvoid}, Ref{Ptr{Cvoid}}), path, C_NULL, out))
        g = new(out[])
        finalizer(close, g)
        return g
    end
end

function Base.close(g::Graph)
    if g.handle != C_NULL
        ccall((:grappi_graph_free, libgrappi_c), Cvoid, (Ptr{Cvoid},), g.handle)
        g.handle = C_NULL
    end
    return nothing
end

import_file(g::Graph, path::AbstractString; kind::Union{Nothing,String}=nothing) =
    check(ccall((:grappi_graph_import, libgrappi_c), Int32, (Ptr{Cvoid}, Cstring, Cstring),
                g.handle, kind === nothing ? C_NULL : kind, path))

function resolve(g::Graph, name::AbstractString)
    id = Ref{Int64}(0)
    check(ccall((:grappi_graph_resolve, libgrappi_c), Int32, (Ptr{Cvoid}, Cstring, Ref{Int64}), g.handle, name, id))
    return id[]
end

"Neighbors with score >= min_score as a vector of (id, score)."
function neighbors(g::Graph, id::Integer; min_score::Real=0.0)
    count = Ref{Csize_t}(0)
    st = ccall((:grappi_graph_neighbors, libgrappi_c), Int32,
               (Ptr{Cvoid}, Int64, Cdouble, Ptr{Int64}, Ptr{Cdouble}, Csize_t, Ref{Csize_t}),
               g.handle, id, min_score, C_NULL, C_NULL, 0, count)
    st == -11 || check(st)   # GRAPPI_EBUFS: count is known
    ids = Vector{Int64}(undef, count[])
    scores = Vector{Cdouble}(undef, count[])
    check(ccall((:grappi_graph_neighbors, libgrappi_c), Int32,
                (Ptr{Cvoid}, Int64, Cdouble, Ptr{Int64}, Ptr{Cdouble}, Csize_t, Ref{Csize_t}),
                g.handle, id, min_score, ids, scores, length(ids), count))
    return collect(zip(ids, scores))
end

"Embeds new or changed node texts with the built-in embedder; returns how many."
"""The neighbors of a protein named by name, alias or external id (as `resolve` takes them)."""
neighbors(g::Graph, name::AbstractString; min_score::Real=0.0) = neighbors(g, resolve(g, name); min_score=min_score)

function embed(g::Graph)
    n = Ref{Csize_t}(0)
    check(ccall((:grappi_graph_embed, libgrappi_c), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Ref{Csize_t}), g.handle, C_NULL, n))
    return Int(n[])
end

"A library-allocated string, copied and freed with grappi_free."
function take_string(p::Ptr{Cchar})
    s = unsafe_string(p)
    ccall((:grappi_free, libgrappi_c), Cvoid, (Ptr{Cvoid},), p)
    return s
end

"""Ranked, explained paths from a node (an id, or a name to resolve) for a therapeutic query with
the default options and the offline extractive model; the explore JSON as a String (parse it
with JSON.jl)."""
function explore(g::Graph, root::Union{Integer,AbstractString}, query::AbstractString)
    id = root isa AbstractString ? resolve(g, root) : Int64(root)
    out = Ref{Ptr{Cchar}}(C_NULL)
    check(ccall((:grappi_graph_explore_json, libgrappi_c), Int32, (Ptr{Cvoid}, Int64, Cstring, Ptr{Cvoid}, Ref{Ptr{Cchar}}),
                g.handle, id, query, C_NULL, out))
    return take_string(out[])
end

"A connected subgraph for a question by PCST (G-Retriever prizes, default options) as JSON, or
with csv=true as G-Retriever's CSV text."
function retrieve(g::Graph, question::AbstractString; csv::Bool=false)
    out = Ref{Ptr{Cchar}}(C_NULL)
    fn = csv ? :grappi_graph_retrieve_csv : :grappi_graph_retrieve_json
    check(ccall((fn, libgrappi_c), Int32, (Ptr{Cvoid}, Cstring, Ptr{Cvoid}, Ref{Ptr{Cchar}}),
                g.handle, question, C_NULL, out))
    return take_string(out[])
end

# grappi_pcst_options and grappi_pcst_result of grappi.h (version 1 of each), field for field.
struct PcstOptionsC
    version::UInt32
    root::Int64
    num_clusters::Int32
    pruning::Ptr{Cchar}
    improve::Int32
    event_order::Int32
end
mutable struct PcstResultC
    version::UInt32
    nodes::Ptr{Int64}
    num_nodes::Csize_t
    edges::Ptr{Int64}
    num_edges::Csize_t
    objective::Cdouble
    net_worth::Cdouble
    objective_before_improve::Cdouble
    improve_rounds::Int32
end

const EVENT_ORDERS = Dict(:default => 0, :fast => 1, :reference => 2)  # GRAPPI_PCST_ORDER_*

"A PCST solver that keeps its buffers between solves; freed by its finalizer or close(s)."
mutable struct PcstSolver
    handle::Ptr{Cvoid}
    function PcstSolver()
        out = Ref{Ptr{Cvoid}}(C_NULL)
        check(ccall((:grappi_pcst_solver_new, libgrappi_c), Int32, (Ref{Ptr{Cvoid}},), out))
        s = new(out[])
        finalizer(close, s)
        return s
    end
end

function Base.close(s::PcstSolver)
    if s.handle != C_NULL
        ccall((:grappi_pcst_solver_free, libgrappi_c), Cvoid, (Ptr{Cvoid},), s.handle)
        s.handle = C_NULL
    end
    return nothing
end

"""Prize-collecting Steiner tree: (nodes, edge indices, objective); node ids are 0-based.
`improve`: local search after pruning (never worse); `event_order`: :default or :reference
(pcst_fast's own order: its results exactly), or :fast (faster; differs only where events tie)."""
function solve(s::PcstSolver, prizes::Vector{Float64}, edges::Vector{Tuple{Int,Int}}, costs::Vector{Float64};
               root::Integer=-1, clusters::Integer=1, pruning::String="gw", improve::Bool=false,
               event_order::Symbol=:default)
    flat = Int64[x for e in edges for x in e]
    GC.@preserve pruning begin
        opts = Ref(PcstOptionsC(1, root, clusters, pointer(pruning), improve ? 1 : 0, EVENT_ORDERS[event_order]))
        res = PcstResultC(1, C_NULL, 0, C_NULL, 0, 0, 0, 0, 0)
        check(ccall((:grappi_pcst_solver_solve, libgrappi_c), Int32,
                    (Ptr{Cvoid}, Csize_t, Ptr{Cdouble}, Csize_t, Ptr{Int64}, Ptr{Cdouble}, Ref{PcstOptionsC}, Ref{PcstResultC}),
                    s.handle, length(prizes), prizes, length(edges), flat, costs, opts, res))
    end
    nodes = copy(unsafe_wrap(Array, res.nodes, Int(res.num_nodes)))
    sel = copy(unsafe_wrap(Array, res.edges, Int(res.num_edges)))
    return nodes, sel, res.objective
end

"One-off pcst solve (see solve): (nodes, edge indices, objective)."
pcst_solve(prizes::Vector{Float64}, edges::Vector{Tuple{Int,Int}}, costs::Vector{Float64}; kw...) =
    solve(PcstSolver(), prizes, edges, costs; kw...)

end # module

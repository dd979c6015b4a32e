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

"Ranked, explained paths from a protein for a therapeutic query with the default options and
the offline extractive model; the explore JSON as a String (parse it with JSON.jl)."
function explore(g::Graph, protein::AbstractString, query::AbstractString)
    out = Ref{Ptr{Cchar}}(C_NULL)
    check(ccall((:grappi_graph_explore, libgrappi_c), Int32, (Ptr{Cvoid}, Cstring, Cstring, Ptr{Cvoid}, Ref{Ptr{Cchar}}),
                g.handle, protein, query, C_NULL, out))
    return take_string(out[])
end

"A connected subgraph for a question by PCST (G-Retriever prizes, default options) as JSON."
function retrieve(g::Graph, question::AbstractString; csv::Bool=false)
    out = Ref{Ptr{Cchar}}(C_NULL)
    check(ccall((:grappi_graph_retrieve, libgrappi_c), Int32, (Ptr{Cvoid}, Cstring, Ptr{Cvoid}, Int32, Ref{Ptr{Cchar}}),
                g.handle, question, C_NULL, csv ? 1 : 0, out))
    return take_string(out[])
end

"""Prize-collecting Steiner tree: (nodes, edge indices, objective); node ids are 0-based.
`improve`: local search after pruning (never worse); `reference_order`: events in pcst_fast's
own order (its results exactly)."""
function pcst_solve(prizes::Vector{Float64}, edges::Vector{Tuple{Int,Int}}, costs::Vector{Float64};
                    root::Integer=-1, clusters::Integer=1, pruning::String="gw",
                    improve::Bool=false, reference_order::Bool=false)
    flat = Int64[x for e in edges for x in e]
    nodes = Vector{Int64}(undef, length(prizes))
    sel = Vector{Int64}(undef, length(edges))
    nn, ne, obj = Ref{Csize_t}(0), Ref{Csize_t}(0), Ref{Cdouble}(0)
    flags = UInt32((improve ? 1 : 0) | (reference_order ? 2 : 0))  # GRAPPI_PCST_IMPROVE, _REFERENCE_ORDER
    check(ccall((:grappi_pcst_solve_flags, libgrappi_c), Int32,
                (Csize_t, Ptr{Cdouble}, Csize_t, Ptr{Int64}, Ptr{Cdouble}, Int64, Int32, Cstring, UInt32,
                 Ptr{Int64}, Ref{Csize_t}, Ptr{Int64}, Ref{Csize_t}, Ref{Cdouble}),
                length(prizes), prizes, length(edges), flat, costs, root, clusters, pruning, flags,
                nodes, nn, sel, ne, obj))
    return nodes[1:nn[]], sel[1:ne[]], obj[]
end

end # module

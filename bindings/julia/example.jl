# julia --project bindings/julia/example.jl   (with GRAPPI_LIB=/path/to/libgrappi_c.so)
include("Grappi.jl")
using .Grappi

println("grappi ", Grappi.version())
g = Grappi.Graph("yeast.db")
Grappi.import_file(g, "data/4932.protein.info.v12.0.txt.gz"; kind="info")
Grappi.import_file(g, "data/4932.protein.physical.links.v12.0.txt.gz"; kind="physical")
cdc28 = Grappi.resolve(g, "CDC28")
println("CDC28 has ", length(Grappi.neighbors(g, cdc28; min_score=0.9)), " partners at score >= 0.9")
nodes, edges, objective = Grappi.pcst_solve([0.0, 5.0, 6.0], [(0, 1), (1, 2)], [3.0, 4.0])
println("PCST: nodes ", nodes, ", edges ", edges, ", objective ", objective)
close(g)

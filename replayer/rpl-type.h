/*
 * rpl-type.h - the replay stub's datatype engine.
 *
 * During replay there is no MPI library: the stub must know, for every
 * datatype handle the program uses, where each byte of a message lands in
 * the user's buffer. Handles keep their recorded values (the stub writes the
 * handle the log holds into the program's `newtype`), so the engine is a
 * registry keyed by handle value:
 *
 *   - builtin handles (MPICH encodes their kind in the top bits and their
 *     size in bits 8-15: DRDB_MPI_BUILTIN_TYPE_TAG in drdb_mpi_abi.h) and
 *     the predefined pair types (MPI_FLOAT_INT, MPI_DOUBLE_INT,
 *     MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT) are known without
 *     registration;
 *   - derived types are registered by the stub when the program calls a
 *     constructor, with the program's own arguments and the handle value
 *     the log says MPI returned.
 *
 * A type is flattened into a list of contiguous byte blocks (offset from the
 * buffer, length) in type-map order, adjacent blocks merged. Packed data
 * (what the recorder logs: MPI_Pack order) is the concatenation of those
 * blocks for element 0, then element 1 at +extent, and so on.
 *
 * Runs inside the replayed process: allocation only when a type is created.
 * Not thread-safe (the stub serializes MPI calls). Every function returns 0
 * or a negative errno-style code (-EINVAL: unknown or freed handle, bad
 * argument; -ENOMEM).
 */
#ifndef DRDB_RPL_TYPE_H
#define DRDB_RPL_TYPE_H

#include <mpi.h>
#include <stdint.h>

/* Size, bounds and true bounds of a type, in bytes (MPI's definitions:
 * extent = ub - lb; true bounds ignore resizing). */
struct rpl_type_info {
    int64_t size;
    int64_t lb, extent;
    int64_t true_lb, true_extent;
    int64_t nblocks; /* contiguous blocks per element after merging */
};

/* Properties of TYPE; -EINVAL for an unknown handle. */
int rpl_type_get(MPI_Datatype type, struct rpl_type_info *info);

/*
 * Constructors. NEW is the handle value to register (from the log); an
 * existing registration under NEW is replaced (MPICH reuses freed handle
 * values). Counts, block lengths and displacements are int64 whatever the
 * MPI binding's width (the caller converts int / MPI_Aint / MPI_Count
 * arrays). Displacements are in elements of OLD for vector/indexed and in
 * bytes for the h- variants and struct, as in MPI.
 */
int rpl_type_contiguous(int64_t count, MPI_Datatype old, MPI_Datatype new_);
int rpl_type_vector(int64_t count, int64_t blocklen, int64_t stride,
                    MPI_Datatype old, MPI_Datatype new_);
int rpl_type_hvector(int64_t count, int64_t blocklen, int64_t stride_bytes,
                     MPI_Datatype old, MPI_Datatype new_);
int rpl_type_indexed(int64_t count, const int64_t *blocklens,
                     const int64_t *displs, MPI_Datatype old,
                     MPI_Datatype new_);
int rpl_type_hindexed(int64_t count, const int64_t *blocklens,
                      const int64_t *displs_bytes, MPI_Datatype old,
                      MPI_Datatype new_);
int rpl_type_indexed_block(int64_t count, int64_t blocklen,
                           const int64_t *displs, MPI_Datatype old,
                           MPI_Datatype new_);
int rpl_type_hindexed_block(int64_t count, int64_t blocklen,
                            const int64_t *displs_bytes, MPI_Datatype old,
                            MPI_Datatype new_);
int rpl_type_struct(int64_t count, const int64_t *blocklens,
                    const int64_t *displs_bytes, const MPI_Datatype *types,
                    MPI_Datatype new_);
/* ORDER is MPI_ORDER_C or MPI_ORDER_FORTRAN. */
int rpl_type_subarray(int ndims, const int64_t *sizes, const int64_t *subsizes,
                      const int64_t *starts, int order, MPI_Datatype old,
                      MPI_Datatype new_);
/* MPI-3.1 section 4.1.4 semantics (as MPICH implements them). */
int rpl_type_darray(int size, int rank, int ndims, const int64_t *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, MPI_Datatype old, MPI_Datatype new_);
int rpl_type_resized(MPI_Datatype old, int64_t lb, int64_t extent,
                     MPI_Datatype new_);
int rpl_type_dup(MPI_Datatype old, MPI_Datatype new_);
/* A contiguous type of SIZE bytes (MPI_Type_create_f90_*, match_size). */
int rpl_type_bytes(int64_t size, MPI_Datatype new_);

/*
 * Copies of types kept outside the registry, for handles MPI returns that
 * the program never built: MPI_File_get_view returns new handles for the
 * types of the view MPI_File_set_view set, which the program may have freed
 * (and MPICH reused their handle values) in between. rpl_type_keep copies
 * TYPE into *OUT (predefined types too); rpl_type_from_kept registers a copy
 * of KEPT under NEW_ (nothing for a predefined NEW_: MPI returned the named
 * handle itself), as WRAPS layers of MPI_Type_contiguous(1, .) around a
 * type of the same type map (what MPICH's ROMIO returns: see
 * rpl_type_unwrap); rpl_type_drop_kept frees KEPT (NULL is ignored).
 */
struct rtype;
int rpl_type_keep(MPI_Datatype type, struct rtype **out);
int rpl_type_from_kept(const struct rtype *kept, MPI_Datatype new_,
                       int wraps);
void rpl_type_drop_kept(struct rtype *kept);
/* MPI_Type_get_contents of a type registered with WRAPS > 0 returns the
 * handle INNER of the type it wraps, which MPI built, not the program:
 * registers INNER as a copy of OUTER with one layer less and returns 1.
 * 0 (nothing done) when OUTER wraps nothing or the engine knows INNER. */
int rpl_type_unwrap(MPI_Datatype outer, MPI_Datatype inner);

/* Forgets a derived type (builtins are ignored) once every handle to it is
 * freed. Types built from it keep their own flattened copy, as MPI
 * requires. */
int rpl_type_free(MPI_Datatype type);
/* The program's MPI_Type_free: as rpl_type_free, but the type, unknown
 * from then on, is kept until a constructor registers its handle value
 * again (MPICH keeps a type that others were built from, and
 * MPI_Type_get_contents of those returns its handle: rpl_type_ref). */
int rpl_type_release(MPI_Datatype type);
/* One more handle to a derived type, known or freed: MPI_Type_get_contents
 * returns the handles of the types a type was built from, which the
 * program frees (MPICH: the same handle values, referenced once more). */
void rpl_type_ref(MPI_Datatype type);

/*
 * Writes packed bytes into a buffer: SRC holds BYTES packed bytes of at most
 * COUNT elements of TYPE; they land in DST according to the type map
 * (element i at DST + i * extent). A partial last element gets only the
 * bytes present (a short message). DST may be MPI_BOTTOM (NULL): TYPE's
 * displacements are then absolute addresses, as in MPI (so for SRC of
 * rpl_type_pack). Returns the bytes consumed (at most
 * BYTES and at most COUNT * size), or a negative code.
 */
int64_t rpl_type_unpack(const void *src, int64_t bytes, void *dst,
                        int64_t count, MPI_Datatype type);

/* The reverse: packs COUNT elements of TYPE at SRC into DST (ROOM bytes).
 * Returns the bytes written or a negative code (-ENOSPC if ROOM is short). */
int64_t rpl_type_pack(const void *src, int64_t count, MPI_Datatype type,
                      void *dst, int64_t room);

#endif

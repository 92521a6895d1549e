/*===- tcgen_rt.h - tcgen kernel runtime, C ABI -------------------*- C -*-===//
 *
 * This file declares the C ABI of libtcgen_rt: load a kernel bundle
 * (docs/BUNDLE.md), validate tensor arguments against its manifest and launch
 * it through the CUDA driver API. libcuda is opened at run time, so programs
 * linking this library start on machines without a driver and get
 * TCGEN_ERROR_NO_DRIVER instead.
 *
 * Threading: calls may come from any thread; a kernel handle must not be
 * unloaded while another thread uses it or a plan of it exists. Error
 * messages are per thread. tcgen_rt_launch may be called on one handle from
 * several threads at once. A plan (tcgen_rt_plan_create) belongs to one
 * thread at a time: calls on one plan must not overlap, calls on different
 * plans of one kernel may. A kernel with a `workspace` param or packs
 * shares its scratch buffers among all launches of its handle, plans
 * included, so those launches must be stream-ordered (one stream, or
 * streams ordered by events): two in flight at once would corrupt each
 * other's partial results.
 *
 * Versions: the ABI is versioned by TCGEN_RT_VERSION_MAJOR; a program built
 * against this header runs with a library of the same major version and the
 * same or a later minor version (tcgen_rt_version()). The shared library's
 * SONAME carries the major version (libtcgen_rt.so.1).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TCGEN_TCGEN_RT_H
#define TCGEN_TCGEN_RT_H

#include <cuda.h>
#include <stdint.h>

#define TCGEN_RT_VERSION_MAJOR 1
#define TCGEN_RT_VERSION_MINOR 1
#define TCGEN_RT_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded kernel: its manifest, CUDA module and function. */
typedef struct tcgen_kernel tcgen_kernel;

typedef enum tcgen_status {
  TCGEN_OK = 0,
  TCGEN_ERROR_INVALID_ARGUMENT = 1,   /* null handle or pointer, bad index */
  TCGEN_ERROR_NOT_FOUND = 2,          /* bundle, manifest or binary missing */
  TCGEN_ERROR_MANIFEST = 3,           /* manifest (or its cubin) malformed */
  TCGEN_ERROR_NO_DRIVER = 4,          /* libcuda could not be loaded */
  TCGEN_ERROR_NO_DEVICE = 5,          /* cuInit failed or no device present */
  TCGEN_ERROR_UNSUPPORTED_DEVICE = 6, /* compute capability or smem too low */
  TCGEN_ERROR_VALIDATION = 7,         /* arguments do not match the manifest */
  TCGEN_ERROR_UNSUPPORTED = 8,        /* manifest feature this runtime lacks */
  TCGEN_ERROR_CUDA = 9                /* a CUDA driver call failed */
} tcgen_status;

/** Element types; the values match tcgen::DType. */
typedef enum tcgen_dtype {
  TCGEN_DTYPE_F16 = 0,
  TCGEN_DTYPE_BF16 = 1,
  TCGEN_DTYPE_F32 = 2,
  TCGEN_DTYPE_F64 = 3,
  TCGEN_DTYPE_I8 = 4,
  TCGEN_DTYPE_I32 = 5,
  TCGEN_DTYPE_E4M3 = 6, /* 8-bit float, 4 exponent bits (OCP FP8 E4M3) */
  TCGEN_DTYPE_E5M2 = 7, /* 8-bit float, 5 exponent bits (OCP FP8 E5M2) */
  TCGEN_DTYPE_I64 = 8   /* 64-bit integer (a grouped product's row offsets) */
} tcgen_dtype;

/** One tensor argument. A launch passes one per manifest operand, in the
 *  manifest's operand order, whatever the role: the epilogue inputs (role
 *  "in") included. Each is checked against its operand: name, dtype, shape,
 *  strides, a non-null and aligned address. A scalar epilogue input has
 *  rank 0 (shape and strides may then be null). For a dynamic-shape kernel
 *  (sizes of -1 in the manifest) m and k come from the lhs tensor, n from
 *  the rhs, strides of -1 from each tensor, and the rest is checked against
 *  them. */
typedef struct tcgen_tensor_arg {
  const char *name; /* must equal the operand's name */
  tcgen_dtype dtype;
  int rank;
  const int64_t *shape;   /* rank elements, outermost first */
  const int64_t *strides; /* rank elements, in elements */
  CUdeviceptr data;       /* device address of element 0 */
} tcgen_tensor_arg;

/** An operand as the manifest describes it; pointers live as long as the
 *  kernel handle (shape and strides may be null for rank 0). */
typedef struct tcgen_operand_info {
  const char *name;
  const char *role; /* "lhs", "rhs", "out", "inout", or "in": an input of
                       the fused epilogue (manifest op.epilogue) */
  tcgen_dtype dtype;
  int rank;
  const int64_t *shape;   /* -1: the size fixed at launch */
  const int64_t *strides; /* -1: the tensor's stride, any at launch */
  int64_t align_bytes;
} tcgen_operand_info;

/** The manifest's `op`. */
typedef struct tcgen_op_info {
  const char *kind; /* "matmul" */
  int64_t batch, m, n, k; /* batch > 1: rank-3 operands, the batch first;
                             m, n or k -1: fixed at each launch by the
                             tensors (a dynamic-shape kernel) */
  int accumulate;
} tcgen_op_info;

/** The manifest's `launch` and `resources`. */
typedef struct tcgen_launch_info {
  int64_t grid[3], block[3], cluster[3]; /* grid[0] -1: one block per SM */
  int64_t dynamic_smem_bytes;
  int64_t registers, spill_bytes, static_smem_bytes;
} tcgen_launch_info;

/** Returns a short name for a status ("TCGEN_ERROR_CUDA"). */
const char *tcgen_rt_status_name(tcgen_status status);

/** Returns the calling thread's message for the last failed call (empty
 *  after a successful one). Valid until the thread's next runtime call. */
const char *tcgen_rt_last_error(void);

/** Loads libcuda, calls cuInit and counts devices. On success stores the
 *  count (possibly 0) in *count. */
tcgen_status tcgen_rt_device_count(int *count);

/** Loads the bundle at `path` (a directory holding exactly one .json
 *  manifest, or the .json itself) on the current CUDA context (the primary
 *  context of device 0 is made current if there is none). Loads the cubin,
 *  or JIT-compiles the PTX if there is no cubin (or the cubin does not fit
 *  the device), looks up the entry and raises its dynamic shared memory
 *  limit when the manifest asks for more than 48 KiB. Refuses a device the
 *  manifest's target excludes, and a cubin that is not a well-formed ELF
 *  image within its file (truncated or corrupt: TCGEN_ERROR_MANIFEST,
 *  naming the file and the problem) rather than fall back to the PTX.
 *  tcgen_rt_load_note() says why a cubin was not used. On success stores a
 *  handle in *out. */
tcgen_status tcgen_rt_load(const char *path, tcgen_kernel **out);

/** Validates `args` (one per manifest operand, in order; see
 *  tcgen_tensor_arg) against the manifest and the kernel's device, builds
 *  the kernel parameters from the manifest's `params` (a `ptr` is the
 *  tensor's device address; a `tensormap` is a CUtensorMap encoded with
 *  cuTensorMapEncodeTiled from the tensor and the param's box and swizzle,
 *  passed by value; a `workspace`, which takes no tensor argument, is the
 *  address of the handle's scratch buffer, allocated and zeroed on
 *  `stream` at the first launch) and launches on `stream` (0 = the legacy
 *  default stream). Nothing is launched when validation or encoding fails.
 *  Asynchronous: errors of the kernel itself surface at the next
 *  synchronizing call. The handle keeps the plans of its last four tensor
 *  shapes: a launch whose tensors have the names, dtypes, shapes and
 *  strides of one of them only re-points it at their addresses (checked
 *  for null and alignment), which costs about what tcgen_rt_plan_launch_with
 *  does. */
tcgen_status tcgen_rt_launch(tcgen_kernel *kernel, const tcgen_tensor_arg *args,
                             int nargs, CUstream stream);

/** A launch plan: the validated arguments and built kernel parameters of one
 *  set of tensor shapes, which later launches re-point at new addresses. */
typedef struct tcgen_plan tcgen_plan;

/** Validates `args` as tcgen_rt_launch does and builds the kernel's
 *  parameters once (tensor maps encoded; packs' buffers and the workspace
 *  allocated, the workspace zeroed before this returns). Launches of the
 *  plan then cost the driver's launch and little else: no validation, no
 *  allocation, no string building. Make plans outside stream capture; their
 *  launches may be captured. On success stores the plan in *out (free it
 *  with tcgen_rt_plan_destroy before unloading the kernel). */
tcgen_status tcgen_rt_plan_create(tcgen_kernel *kernel,
                                  const tcgen_tensor_arg *args, int nargs,
                                  tcgen_plan **out);

/** Moves operand `index` (manifest order) of the plan to `data`, the same
 *  shape and strides at another address: checks it is non-null and aligned
 *  as the operand needs, then updates the parameters that hold it (tensor
 *  maps by address only, cuTensorMapReplaceAddress). */
tcgen_status tcgen_rt_plan_set_address(tcgen_plan *plan, int index,
                                       CUdeviceptr data);

/** Launches the plan on `stream`, asynchronously. A plan launches as a
 *  CUDA graph of its kernel (and packs), whose launch costs the host about
 *  half of a kernel launch; on a stream being captured, as plain kernel
 *  launches. Launches of one plan on two streams therefore run one after
 *  the other, never overlapped. */
tcgen_status tcgen_rt_plan_launch(tcgen_plan *plan, CUstream stream);

/** Sets every operand's address (`ndata` = the kernel's operand count, in
 *  manifest order, as tcgen_rt_plan_set_address does), then launches on
 *  `stream`: the one call a framework makes per step. Nothing is launched
 *  if an address is refused. */
tcgen_status tcgen_rt_plan_launch_with(tcgen_plan *plan,
                                       const CUdeviceptr *data, int ndata,
                                       CUstream stream);

/** Frees a plan; null is a no-op. */
void tcgen_rt_plan_destroy(tcgen_plan *plan);

/** Returns TCGEN_RT_VERSION_MAJOR * 10000 + MINOR * 100 + PATCH of the
 *  library. */
int tcgen_rt_version(void);

/** Frees the workspace, unloads the module and frees the handle; null is a
 *  no-op. */
void tcgen_rt_unload(tcgen_kernel *kernel);

/* Accessors; strings and arrays live as long as the handle. Null handles
 * give null / 0 / TCGEN_ERROR_INVALID_ARGUMENT. */
const char *tcgen_rt_entry(const tcgen_kernel *kernel);
const char *tcgen_rt_manifest_path(const tcgen_kernel *kernel);
const char *tcgen_rt_arch(const tcgen_kernel *kernel);
const char *tcgen_rt_backend(const tcgen_kernel *kernel);
/** Returns "cubin" or "ptx": what the module was loaded from. */
const char *tcgen_rt_binary_kind(const tcgen_kernel *kernel);
/** Returns the name of the device the kernel was loaded on. */
const char *tcgen_rt_device_name(const tcgen_kernel *kernel);
int tcgen_rt_num_operands(const tcgen_kernel *kernel);
tcgen_status tcgen_rt_operand(const tcgen_kernel *kernel, int index,
                              tcgen_operand_info *out);
tcgen_status tcgen_rt_op(const tcgen_kernel *kernel, tcgen_op_info *out);
tcgen_status tcgen_rt_launch_info(const tcgen_kernel *kernel,
                                  tcgen_launch_info *out);
/** Returns why the manifest's cubin was not used although it names one
 *  (the file could not be read, or the driver refused it for this device:
 *  the driver's error; the kernel then runs from the PTX, JIT-compiled by
 *  the driver), or "" when the cubin was loaded or the manifest names
 *  none. */
const char *tcgen_rt_load_note(const tcgen_kernel *kernel);

/** Returns the manifest spelling of a dtype ("f16"), or "?". */
const char *tcgen_rt_dtype_name(tcgen_dtype dtype);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCGEN_TCGEN_RT_H */

/*===- consumer.c - A C program on the installed tcgen runtime -----------===//
 *
 * This file implements a minimal user of libtcgen_rt.so's C ABI, built
 * against an installed tcgen (CMake package or pkg-config): it checks the
 * library's version against the header's, counts devices, and, given a
 * bundle directory and a GPU, loads the bundle and prints its operands.
 * Exits 0 when every call behaves as documented, also on a machine with no
 * driver.
 *
 *===---------------------------------------------------------------------===*/

#include <tcgen/tcgen_rt.h>

#include <stdio.h>

int main(int argc, char **argv) {
  int version = tcgen_rt_version();
  int least = TCGEN_RT_VERSION_MAJOR * 10000 + TCGEN_RT_VERSION_MINOR * 100;
  if (version / 10000 != TCGEN_RT_VERSION_MAJOR || version < least) {
    fprintf(stderr, "library version %d does not serve header %d.%d\n",
            version, TCGEN_RT_VERSION_MAJOR, TCGEN_RT_VERSION_MINOR);
    return 1;
  }
  /* Documented error paths, with no GPU needed. */
  if (tcgen_rt_load(NULL, NULL) != TCGEN_ERROR_INVALID_ARGUMENT ||
      tcgen_rt_plan_launch(NULL, 0) != TCGEN_ERROR_INVALID_ARGUMENT ||
      tcgen_rt_last_error()[0] == '\0') {
    fprintf(stderr, "null arguments were not refused\n");
    return 1;
  }
  int count = 0;
  tcgen_status status = tcgen_rt_device_count(&count);
  printf("tcgen_rt %d: %s, %d device(s)\n", version,
         tcgen_rt_status_name(status), count);
  if (status != TCGEN_OK && status != TCGEN_ERROR_NO_DRIVER &&
      status != TCGEN_ERROR_NO_DEVICE)
    return 1;
  if (argc < 2 || status != TCGEN_OK || count == 0)
    return 0;
  tcgen_kernel *kernel = NULL;
  if ((status = tcgen_rt_load(argv[1], &kernel)) != TCGEN_OK) {
    fprintf(stderr, "%s: %s\n", tcgen_rt_status_name(status),
            tcgen_rt_last_error());
    return 1;
  }
  printf("%s (%s, %s) on %s:\n", tcgen_rt_entry(kernel),
         tcgen_rt_binary_kind(kernel), tcgen_rt_backend(kernel),
         tcgen_rt_device_name(kernel));
  for (int i = 0; i < tcgen_rt_num_operands(kernel); ++i) {
    tcgen_operand_info info;
    if (tcgen_rt_operand(kernel, i, &info) != TCGEN_OK)
      return 1;
    printf("  %s: %s %s, rank %d\n", info.name, info.role,
           tcgen_rt_dtype_name(info.dtype), info.rank);
  }
  tcgen_rt_unload(kernel);
  return 0;
}

//===- Kernel.cpp -===//

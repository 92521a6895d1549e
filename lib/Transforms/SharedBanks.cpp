//===- SharedBanks.cpp - Shared-memory bank conflicts of copy stores ------===//

#include "tcgen/Transforms/SharedBanks.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace mlir::tcgen {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kBanks = 32;
constexpr int64_t kBankBytes = 4;
constexpr int64_t kGroupRows = 8;

bool isCopyOrderValid(CopyOrder order, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0)
    return false;
  if (order == CopyOrder::RowMajor)
    return true;
  if (order == CopyOrder::Paired)
    return rows % kGroupRows == 0;
  return 4 % cols == 0 && rows % kGroupRows == 0;
}

void copyChunkOf(CopyOrder order, int64_t cols, int64_t l, int64_t &row,
                 int64_t &col) {
  if (order != CopyOrder::Interleaved) {
    row = l / cols;
    col = l % cols;
    if (order == CopyOrder::Paired)
      row = (row / kGroupRows) * kGroupRows + (row % 2) * (kGroupRows / 2) +
            (row % kGroupRows) / 2;
    return;
  }
  int64_t group = kGroupRows * cols;
  row = (l / group) * kGroupRows + l % kGroupRows;
  col = (l % group) / kGroupRows;
}

static int64_t threadsPerPhase(int64_t chunkBytes) {
  return chunkBytes >= 16 ? 8 : (chunkBytes == 8 ? 16 : kWarpSize);
}

/// Sums `phaseCost(chunks)` over the phases of a copy in `order`, where
/// `chunks` holds the (row, col) of each thread of the phase. 0 for an
/// invalid order.
template <typename PhaseCost>
static int64_t sumOverPhases(CopyOrder order, int64_t rows, int64_t cols,
                             int64_t chunkBytes, PhaseCost phaseCost) {
  if (!isCopyOrderValid(order, rows, cols) || chunkBytes <= 0)
    return 0;
  int64_t step = threadsPerPhase(chunkBytes);
  int64_t total = rows * cols, sum = 0;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  for (int64_t phase = 0; phase < total; phase += step) {
    chunks.clear();
    for (int64_t l = phase; l < std::min(total, phase + step); ++l) {
      int64_t row, col;
      copyChunkOf(order, cols, l, row, col);
      chunks.push_back({row, col});
    }
    sum += phaseCost(chunks);
  }
  return sum;
}

int64_t copyStoreWavefronts(CopyOrder order, int64_t rows, int64_t cols,
                            int64_t chunkBytes, int64_t strideBytes) {
  return sumOverPhases(order, rows, cols, chunkBytes, [&](const auto &chunks) {
    std::map<int64_t, std::set<int64_t>> wordsPerBank;
    for (auto [row, col] : chunks) {
      int64_t addr = row * strideBytes + col * chunkBytes;
      for (int64_t w = addr / kBankBytes;
           w < (addr + chunkBytes + kBankBytes - 1) / kBankBytes; ++w)
        wordsPerBank[w % kBanks].insert(w);
    }
    size_t worst = 1;
    for (auto &[bank, words] : wordsPerBank)
      worst = std::max(worst, words.size());
    return int64_t(worst);
  });
}

int64_t copyLoadLines(CopyOrder order, int64_t rows, int64_t cols,
                      int64_t chunkBytes) {
  constexpr int64_t kLineBytes = 128;
  return sumOverPhases(order, rows, cols, chunkBytes, [&](const auto &chunks) {
    std::set<std::pair<int64_t, int64_t>> touched;
    for (auto [row, col] : chunks)
      touched.insert({row, col * chunkBytes / kLineBytes});
    return int64_t(touched.size());
  });
}

CopyOrder chooseCopyOrder(int64_t rows, int64_t cols, int64_t chunkBytes,
                          int64_t strideBytes) {
  CopyOrder best = CopyOrder::RowMajor;
  int64_t bestCost = -1;
  for (CopyOrder order :
       {CopyOrder::RowMajor, CopyOrder::Paired, CopyOrder::Interleaved}) {
    if (!isCopyOrderValid(order, rows, cols))
      continue;
    int64_t cost =
        copyStoreWavefronts(order, rows, cols, chunkBytes, strideBytes) +
        copyLoadLines(order, rows, cols, chunkBytes);
    if (bestCost < 0 || cost < bestCost) {
      best = order;
      bestCost = cost;
    }
  }
  return best;
}

} // namespace mlir::tcgen

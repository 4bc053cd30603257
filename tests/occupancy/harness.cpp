// Asks NVIDIA's occupancy calculator (cuda_occupancy.h from the nvidia-cuda-runtime-cu12 wheel, fetched by
// tests/model/test_occupancy.py at test time and never kept in the repository) how many blocks are resident on one SM.
//
// stdin, one case per line (whitespace-separated integers):
//   major minor warpSize maxThreadsPerBlock maxThreadsPerSM regsPerBlock regsPerSM
//   sharedMemPerBlock sharedMemPerSM sharedMemPerBlockOptin reservedSharedMemPerBlock numSms
//   threads registersPerThread dynamicSharedMem
// stdout, one line per case: blocks limitWarps limitRegs limitSharedMem limitBlocks   (-1: no limit),
// or "error <code>" when the calculator rejects the input.
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cuda_occupancy.h"

static long shown(int limit) { return limit == INT_MAX ? -1L : (long)limit; }

int main() {
    long v[15];
    while (true) {
        for (int i = 0; i < 15; ++i) {
            if (!(std::cin >> v[i])) return 0;
        }
        cudaOccDeviceProp prop;
        prop.computeMajor = (int)v[0];
        prop.computeMinor = (int)v[1];
        prop.warpSize = (int)v[2];
        prop.maxThreadsPerBlock = (int)v[3];
        prop.maxThreadsPerMultiprocessor = (int)v[4];
        prop.regsPerBlock = (int)v[5];
        prop.regsPerMultiprocessor = (int)v[6];
        prop.sharedMemPerBlock = (size_t)v[7];
        prop.sharedMemPerMultiprocessor = (size_t)v[8];
        prop.sharedMemPerBlockOptin = (size_t)v[9];
        prop.reservedSharedMemPerBlock = (size_t)v[10];
        prop.numSms = (int)v[11];

        // A kernel whose shared memory is all dynamic and that has opted in to the per-block maximum
        // (cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, optin)), one __syncthreads barrier.
        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = INT_MAX;
        attr.numRegs = (int)v[13];
        attr.sharedSizeBytes = 0;
        attr.partitionedGCConfig = PARTITIONED_GC_OFF;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        attr.maxDynamicSharedSizeBytes = (size_t)v[9];
        attr.numBlockBarriers = 1;

        cudaOccDeviceState state;   // default carveout: the whole shared memory of the SM
        cudaOccResult result;
        std::memset(&result, 0, sizeof result);
        cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, (int)v[12], (size_t)v[14]);
        if (err != CUDA_OCC_SUCCESS) {
            std::printf("error %d\n", (int)err);
            continue;
        }
        std::printf("%d %ld %ld %ld %ld\n", result.activeBlocksPerMultiprocessor, shown(result.blockLimitWarps),
                    shown(result.blockLimitRegs), shown(result.blockLimitSharedMem), shown(result.blockLimitBlocks));
    }
}

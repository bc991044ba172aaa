// probe_state.h: state a kernel's helper records in device memory, declared in a header, as
// projects keep such variables. The comment lines below only place the declaration: its byte
// offsets in this header fall inside the helper's in neg_header_global.cu, the case where
// comparing offsets of different files once took the variable for the helper's own local.
#pragma once
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
// (placement)
__device__ int probe_k; // the last tile the helper loaded

// Counts heap allocations made while armed, for the runtime's zero-allocation tests.
// Linking //tests/support:allocation_counter replaces operator new/delete and, outside
// AddressSanitizer builds (which own malloc), malloc/calloc/realloc/aligned_alloc/
// posix_memalign with counting versions; they count only between arm and disarm. The test
// must be `linkstatic = True` so the executable holds the interposers and they win over a
// sanitizer runtime's (a shared test library would lose to libasan's operator new).
//
//   AllocationCounter::arm();
//   method->execute();
//   long n = AllocationCounter::disarm();   // allocations since arm()
#pragma once

namespace ember::testing {

class AllocationCounter {
 public:
  static void arm();     // resets the count and starts counting
  static long disarm();  // stops counting; returns the count
  static long count();   // the count so far
  // Whether malloc and friends are counted too (false under ASan: operator new only).
  static bool counts_malloc();
};

}  // namespace ember::testing

//! The allocator's state for timings that allocate: a program that has run a while holds
//! freed blocks of many sizes, and timings taken on a fresh heap differ from it.

/// Leaves the allocator as a program that has been running does: 100,000 blocks of 16 to
/// 2,063 bytes allocated, every other one freed. Returns the blocks kept, to drop when done.
///
/// Why it matters: on a fresh heap, a growing buffer usually sits at the heap's top and
/// `realloc` extends it in place; on a used heap it moves, copying what it holds. So
/// `serde_json::to_vec`, which grows its buffer from 128 bytes, runs faster on a fresh heap
/// than once memory of many sizes has been freed (callgrind: 6,580 instructions per postgres
/// create-pipe body fresh, 6,846 used), while a build, which sizes its buffers up front,
/// costs the same in both (6,283).
pub fn used_heap() -> Vec<Vec<u8>> {
    let mut blocks: Vec<Vec<u8>> = (0..100_000).map(|i| vec![0u8; 16 + (i * 37) % 2048]).collect();
    let mut i = 0;
    blocks.retain(|_| {
        i += 1;
        i % 2 == 0
    });
    blocks
}

internal import CMalloc

// The one place that tunes glibc's allocator.

/// How the process allocates the large pixel buffers that rendering makes and frees again and again.
public enum GraphicsMemory {
    /// Keeps freed buffers of up to 256 MiB in the heap for reuse instead of returning them to the system.
    ///
    /// By default glibc gives every buffer above a few MiB its own fresh mapping, so each metatile
    /// (a 2048x2048 surface, its RGBA copy and tiles) faults in new zeroed pages: on a world pyramid that is
    /// ~700,000 page faults and a fifth of the run's time. Call once before a long batch of renders; peak
    /// memory stays what the batch needs at once.
    public static func keepLargeBuffersForReuse() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
    }
}

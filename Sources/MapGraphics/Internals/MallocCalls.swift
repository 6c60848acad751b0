internal import CMalloc

// The one place that tunes glibc's allocator.

/// How the process allocates the large pixel buffers that rendering makes and frees again and again.
public enum GraphicsMemory {
    /// Keeps freed buffers of up to 256 MiB in the heap for reuse instead of returning them to the system.
    ///
    /// By default glibc gives every buffer above a few MiB its own fresh mapping, so each metatile
    /// (a 2048x2048 surface, its RGBA copy and tiles) faults in new zeroed pages: on a world pyramid that is
    /// ~700,000 page faults and a fifth of the run's time. The same happens to a labelled 2048x1536 image
    /// drawn again and again (its surface and PNG rows, 22 MB of fresh pages and 13 ms of system time a
    /// render), because glibc also trims the heap's top once more than twice the largest freed buffer is free.
    ///
    /// ``MapSnapshotter`` and tile jobs call it before they render, so every process that renders repeatedly
    /// keeps its buffers; peak memory stays what the renders need at once. Only the first call in a process
    /// sets the options. A server returns the kept memory when idle with ``returnFreedMemory()``.
    public static func keepLargeBuffersForReuse() {
        _ = largeBuffersKept
    }

    private static let largeBuffersKept: Void = {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
    }()
}

extension GraphicsMemory {
    /// Caps glibc's malloc arenas at `count` (`M_ARENA_MAX`; by default it makes up to eight per core, each
    /// keeping the memory its threads freed). For a long-running process with a fixed set of render threads.
    public static func limitArenas(to count: Int) {
        _ = mallopt(M_ARENA_MAX, Int32(clamping: max(1, count)))
    }

    /// Returns the heap's free pages to the system (`malloc_trim(0)`, every arena): after a burst of renders,
    /// the memory they freed stops counting as the process's resident memory.
    public static func returnFreedMemory() {
        _ = malloc_trim(0)
    }
}

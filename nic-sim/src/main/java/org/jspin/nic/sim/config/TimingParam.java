package org.jspin.nic.sim.config;

/**
 * Every parameter of the timing model: its key (as written in a configuration file or an override),
 * unit, default, the range it is checked against, and where the default comes from. Where no public
 * source gives a value the default says "assumed" and why; none is tuned to make one of the paper's
 * claims come true.
 */
public enum TimingParam {
    /** Link rate. */
    LINE_RATE("line-rate", "Gbit/s", 200, 1, 10_000, "the paper's NIC; PsPIN's simulator has 200 and 400 presets"),
    /** One-way link latency before the first packet. */
    LINK_LATENCY("link-latency", "ns", 100, 0, 1e9, "assumed: a cable and one switch hop"),
    /** Matching the first packet of a message. */
    MATCH_FIRST("match-first", "ns", 100, 0, 1e9, "LogGOPSim2's Portals defaults (100 time units, taken as ns)"),
    /** Matching every later packet. */
    MATCH_NEXT("match-next", "ns", 10, 0, 1e9, "LogGOPSim2's Portals defaults (10 time units, taken as ns)"),
    /** HPU clock. */
    HPU_CLOCK("hpu-clock", "GHz", 1, 0.01, 100, "PsPIN (1 GHz); the SC17 gem5 model ran ARM cores at 2.5 GHz"),
    /** Fixed cost of invoking a handler. */
    HANDLER_BASE("handler-base", "cycles", 26, 0, 1e6, "PsPIN: 26 ns for a 64 B packet at 1 GHz, the whole handler"),
    /** Emitting one piece: computing its address and issuing its DMA command. */
    BLOCK("block", "cycles", 8, 0, 1e6, "assumed: an address computation and a command write"),
    /** Passing over one whole block while catching up. */
    WALK("walk", "cycles", 4, 0, 1e6, "assumed: one MPITypes leaf step (compare, add, branch)"),
    /** Entering one dataloop level. */
    LEVEL("level", "cycles", 4, 0, 1e6, "assumed: pushing a segment frame"),
    /** One integer division (closed-form positioning). */
    DIVISION("division", "cycles", 20, 0, 1e6, "assumed: the latency of an integer divide on a small in-order core"),
    /** One binary search probe (besides its memory access). */
    SEARCH_STEP("search-step", "cycles", 3, 0, 1e6, "assumed: compare and branch"),
    /** NIC memory access latency. */
    MEMORY_LATENCY("memory-latency", "cycles", 1, 0, 1e6, "the paper's preset: 1 cycle (the SC17 gem5 templates)"),
    /** NIC memory bandwidth. */
    MEMORY_BANDWIDTH("memory-bandwidth", "GiB/s", 50, 0.1, 1e6, "the paper's preset: 50 GiB/s"),
    /** NIC memory banks. */
    MEMORY_BANKS("memory-banks", "banks", 64, 1, 1 << 16, "the paper's preset: twice the HPUs"),
    /** Whether accesses queue at their bank (1) or never wait (0). */
    MEMORY_CONTENTION("memory-contention", "0/1", 0, 0, 1, "the paper's preset: no contention"),
    /** DMA commands an HPU may have outstanding before it stalls. */
    DMA_OUTSTANDING("dma-outstanding", "commands", 4, 1, 1 << 16, "PsPIN: 4 per HPU"),
    /** PCIe bandwidth to host memory. */
    PCIE_BANDWIDTH("pcie-bandwidth", "GB/s", 63.0, 0.1, 1e6, "32-lane PCIe Gen4 (the paper's host link):"
            + " 32 x 16 GT/s x 128/130 / 8"),
    /** Bytes of header and framing per PCIe write request (TLP). */
    PCIE_OVERHEAD("pcie-overhead", "bytes", 24, 0, 4096, "PCIe: 16 B header (64-bit address) + 8 B sequence,"
            + " LCRC and framing per TLP"),
    /** Largest payload of one PCIe write request; longer DMA writes are split. */
    PCIE_MAX_PAYLOAD("pcie-max-payload", "bytes", 256, 64, 4096, "PCIe: a common Max_Payload_Size"),
    /** Latency of a DMA write command from issue to completion, beside its transfer. */
    DMA_LATENCY("dma-latency", "ns", 2, 0, 1e9, "PsPIN's model: 2 cycles"),
    /** Fetching a batch of iovec entries from host memory. */
    IOVEC_FETCH("iovec-fetch", "ns", 500, 0, 1e9, "the paper: about 500 ns per fetch over PCIe (a model)"),
    /** Packet buffer on the NIC. */
    PACKET_BUFFER("packet-buffer", "bytes", 4 << 20, 4096, 1L << 40, "PsPIN: 4 MiB L2 packet buffer"),
    /** Allowed scheduling overhead of rw-cp's blocked round robin when Δr is chosen. */
    EPSILON("epsilon", "fraction", 0.2, 0.001, 10, "the paper's Δr model"),
    /** Host memory bandwidth of the modelled host baseline. */
    HOST_BANDWIDTH("host-bandwidth", "GB/s", 12.8, 0.1, 1e6, "assumed: half the 25.6 GB/s peak of the paper's"
            + " i7-4770 (dual-channel DDR3-1600), cold caches"),
    /** Per-region cost of the modelled host baseline. */
    HOST_REGION("host-region", "ns", 5, 0, 1e6, "assumed: an MPITypes leaf step and a short copy's start-up on"
            + " the host; compare with the measured baseline"),
    /** Cache line of host memory. */
    CACHE_LINE("cache-line", "bytes", 64, 8, 4096, "x86 and ARM hosts");

    private final String key;
    private final String unit;
    private final double defaultValue;
    private final double min;
    private final double max;
    private final String source;

    TimingParam(String key, String unit, double defaultValue, double min, double max, String source) {
        this.key = key;
        this.unit = unit;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.source = source;
    }

    /** @return the key in configuration files and overrides */
    public String key() {
        return key;
    }

    /** @return the unit */
    public String unit() {
        return unit;
    }

    /** @return the default */
    public double defaultValue() {
        return defaultValue;
    }

    /** @return the smallest value accepted */
    public double min() {
        return min;
    }

    /** @return the largest value accepted */
    public double max() {
        return max;
    }

    /** @return where the default comes from */
    public String source() {
        return source;
    }

    /** @return the parameter with key {@code key}, or null */
    public static TimingParam byKey(String key) {
        for (TimingParam p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }
}

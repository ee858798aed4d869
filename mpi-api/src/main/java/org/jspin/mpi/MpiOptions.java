package org.jspin.mpi;

import java.util.List;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.datatype.kernel.KernelSettings;
import org.jspin.nic.NicConfig;
import org.jspin.nic.NicSettings;
import org.jspin.nic.Providers;
import org.jspin.nic.engine.ProgressSettings;
import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * How to start a rank: which backend (NIC) and fabric, the protocol settings, where meters go,
 * and whether to log an end-of-run summary. Immutable; {@link #fromEnvironment()} reads the
 * defaults a user sets outside the program ({@link #ALL}: {@code JSPIN_BACKEND}, {@code JSPIN_FABRIC},
 * {@code JSPIN_SUMMARY}, {@code JSPIN_TRACE}, or the system properties {@code jspin.backend},
 * {@code jspin.fabric}, {@code jspin.summary}, {@code jspin.trace}).
 *
 * @param backend backend name ({@code host})
 * @param fabric  fabric name ({@code local})
 * @param nic     protocol settings
 * @param summary whether {@link Mpi#close()} logs the meters of the rank
 * @param meters  makes the registry each rank's meters go to
 * @param trace   the directory each rank writes its trace to (docs/trace-format.md), or empty: no trace
 */
public record MpiOptions(String backend, String fabric, NicConfig nic, boolean summary,
                         Supplier<? extends MeterRegistry> meters, String trace) {
    /** Backend when nothing says otherwise. */
    public static final String DEFAULT_BACKEND = "host";
    /** Fabric when nothing says otherwise. */
    public static final String DEFAULT_FABRIC = "local";

    /** {@code -Djspin.backend} or {@code JSPIN_BACKEND}. */
    public static final Setting<String> BACKEND = Setting.text("jspin.backend", DEFAULT_BACKEND,
            "the NIC backend: host (the CPU packs and unpacks) or sim (the simulated sPIN NIC)").orEnvironment("JSPIN_BACKEND");
    /** {@code -Djspin.fabric} or {@code JSPIN_FABRIC}. */
    public static final Setting<String> FABRIC = Setting.text("jspin.fabric", DEFAULT_FABRIC,
            "the fabric between ranks: local (one JVM), shm (one host), netty (TCP); a launched job chooses by itself")
            .orEnvironment("JSPIN_FABRIC");
    /** {@code -Djspin.summary} or {@code JSPIN_SUMMARY}. */
    public static final Setting<Boolean> SUMMARY = Setting.flag("jspin.summary", false,
            "each rank logs its meters when it closes").orEnvironment("JSPIN_SUMMARY");
    /** {@code -Djspin.warmup} or {@code JSPIN_WARMUP}: see {@link Warmup}. */
    public static final Setting<String> WARMUP = Setting.choice("jspin.warmup", "true", List.of("true", "false", "1", "0"),
            "a launched rank exchanges a few messages with itself before the program's first call").orEnvironment("JSPIN_WARMUP");
    /** {@code -Djspin.trace} or {@code JSPIN_TRACE}: see {@link org.jspin.mpi.trace.Tracer}. */
    public static final Setting<String> TRACE = Setting.text("jspin.trace", "",
            "a directory: each rank records its schedule there (docs/trace-format.md); unset: no trace").orEnvironment("JSPIN_TRACE");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(BACKEND, FABRIC, SUMMARY, WARMUP, TRACE);

    /**
     * Checks that nothing is null or blank (whether the backend and fabric exist is checked when a
     * rank starts, against what is on the class path).
     *
     * @throws MpiException ERR_ARG naming the missing setting
     */
    public MpiOptions {
        if (backend == null || backend.isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "backend name must not be " + (backend == null ? "null" : "blank")
                    + "; available: " + Providers.backends());
        }
        if (fabric == null || fabric.isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "fabric name must not be " + (fabric == null ? "null" : "blank")
                    + "; available: " + Providers.fabrics());
        }
        if (nic == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "NIC settings must not be null");
        }
        if (meters == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "meter registry supplier must not be null");
        }
        trace = trace == null ? "" : trace.strip();
    }

    /** Options without a trace. */
    public MpiOptions(String backend, String fabric, NicConfig nic, boolean summary, Supplier<? extends MeterRegistry> meters) {
        this(backend, fabric, nic, summary, meters, "");
    }

    /** @return host backend, local fabric, default protocol settings, no summary */
    public static MpiOptions defaults() {
        return new MpiOptions(DEFAULT_BACKEND, DEFAULT_FABRIC, NicConfig.DEFAULT, false, SimpleMeterRegistry::new);
    }

    /**
     * @return the defaults, overridden by the environment and system properties
     * @throws MpiException ERR_ARG naming the property (or variable) and its value if a setting of
     *                      this layer or of those below it that it can see is malformed
     */
    public static MpiOptions fromEnvironment() {
        Settings s = Settings.current();
        checkLowerLayers(s);
        MpiOptions o = defaults();
        return new MpiOptions(s.get(BACKEND), s.get(FABRIC), o.nic, s.get(SUMMARY), o.meters, s.get(TRACE));
    }

    /**
     * Reads the settings of the layers below once, here, where a malformed one is an error the
     * program's {@code Mpi.init} reports, rather than a class that fails to load later.
     */
    private static void checkLowerLayers(Settings s) {
        s.get(NicSettings.EAGER_CREDIT);
        ProgressSettings.from(s);
        KernelSettings.from(s);
        s.get(WARMUP);
    }

    /** @return a copy on another backend */
    public MpiOptions withBackend(String name) {
        return new MpiOptions(name, fabric, nic, summary, meters, trace);
    }

    /** @return a copy on another fabric */
    public MpiOptions withFabric(String name) {
        return new MpiOptions(backend, name, nic, summary, meters, trace);
    }

    /** @return a copy with other protocol settings */
    public MpiOptions withNic(NicConfig config) {
        return new MpiOptions(backend, fabric, config, summary, meters, trace);
    }

    /** @return a copy that does or does not log a summary at close */
    public MpiOptions withSummary(boolean on) {
        return new MpiOptions(backend, fabric, nic, on, meters, trace);
    }

    /** @return a copy whose ranks register their meters in {@code registry} (shared by all ranks of a JVM) */
    public MpiOptions withMeters(MeterRegistry registry) {
        if (registry == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "meter registry must not be null");
        }
        return new MpiOptions(backend, fabric, nic, summary, () -> registry, trace);
    }

    /** @return a copy whose ranks trace to {@code dir} (null or blank: no trace) */
    public MpiOptions withTrace(String dir) {
        return new MpiOptions(backend, fabric, nic, summary, meters, dir);
    }
}

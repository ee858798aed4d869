package org.jspin.mpi;

import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.NicConfig;
import org.jspin.nic.Providers;

/**
 * How to start a rank: which backend (NIC) and fabric, the protocol settings, where meters go,
 * and whether to log an end-of-run summary. Immutable; {@link #fromEnvironment()} reads the
 * defaults a user sets outside the program ({@code JSPIN_BACKEND}, {@code JSPIN_FABRIC},
 * {@code JSPIN_SUMMARY}, or the system properties {@code jspin.backend}, {@code jspin.fabric},
 * {@code jspin.summary}).
 *
 * @param backend backend name ({@code host})
 * @param fabric  fabric name ({@code local})
 * @param nic     protocol settings
 * @param summary whether {@link Mpi#close()} logs the meters of the rank
 * @param meters  makes the registry each rank's meters go to
 */
public record MpiOptions(String backend, String fabric, NicConfig nic, boolean summary,
                         Supplier<? extends MeterRegistry> meters) {
    /** Backend when nothing says otherwise. */
    public static final String DEFAULT_BACKEND = "host";
    /** Fabric when nothing says otherwise. */
    public static final String DEFAULT_FABRIC = "local";

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
    }

    /** @return host backend, local fabric, default protocol settings, no summary */
    public static MpiOptions defaults() {
        return new MpiOptions(DEFAULT_BACKEND, DEFAULT_FABRIC, NicConfig.DEFAULT, false, SimpleMeterRegistry::new);
    }

    /** @return the defaults, overridden by the environment and system properties */
    public static MpiOptions fromEnvironment() {
        MpiOptions o = defaults();
        return new MpiOptions(setting("JSPIN_BACKEND", "jspin.backend", o.backend),
                setting("JSPIN_FABRIC", "jspin.fabric", o.fabric), o.nic,
                Boolean.parseBoolean(setting("JSPIN_SUMMARY", "jspin.summary", "false")), o.meters);
    }

    private static String setting(String env, String property, String fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? fallback : v.trim();
    }

    /** @return a copy on another backend */
    public MpiOptions withBackend(String name) {
        return new MpiOptions(name, fabric, nic, summary, meters);
    }

    /** @return a copy on another fabric */
    public MpiOptions withFabric(String name) {
        return new MpiOptions(backend, name, nic, summary, meters);
    }

    /** @return a copy with other protocol settings */
    public MpiOptions withNic(NicConfig config) {
        return new MpiOptions(backend, fabric, config, summary, meters);
    }

    /** @return a copy that does or does not log a summary at close */
    public MpiOptions withSummary(boolean on) {
        return new MpiOptions(backend, fabric, nic, on, meters);
    }

    /** @return a copy whose ranks register their meters in {@code registry} (shared by all ranks of a JVM) */
    public MpiOptions withMeters(MeterRegistry registry) {
        if (registry == null) {
            throw new MpiException(ErrorClass.ERR_ARG, "meter registry must not be null");
        }
        return new MpiOptions(backend, fabric, nic, summary, () -> registry);
    }
}

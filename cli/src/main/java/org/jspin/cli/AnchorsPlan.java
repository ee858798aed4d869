package org.jspin.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspin.bench.NameFilter;
import org.jspin.bench.anchors.PackVersus;
import org.jspin.bench.pack.PackCases;
import org.jspin.bench.pack.SharedDir;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.transport.netty.NettyFabricProvider;

/**
 * What {@code jspin bench anchors} was asked to compare, checked: every bad value is an
 * {@link MpiException} ERR_ARG naming it, before any round runs.
 *
 * @param what   pingpong or pack
 * @param rounds interleaved rounds, at least 1
 * @param scale  multiplies jspin's round trips per case, positive and finite
 * @param fabric netty or shm (pingpong)
 * @param runSh  the anchors' script, a file
 * @param filter which of jspin's cases run (null: all), matching at least one case {@code what} compares
 */
record AnchorsPlan(String what, int rounds, double scale, String fabric, Path runSh, String filter) {
    /** The shared-memory fabric's name. */
    static final String SHM = "shm";
    /** Compares the ping-pong. */
    static final String PINGPONG = "pingpong";
    /** Compares the pack sweep. */
    static final String PACK = "pack";

    /** Checks the values, in the order the command's options are described. */
    AnchorsPlan {
        if (rounds < 1) {
            throw new MpiException(ErrorClass.ERR_ARG, "--rounds must be at least 1, got " + rounds);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--scale must be a positive number, got " + scale);
        }
        if (!fabric.equals(NettyFabricProvider.NAME) && !fabric.equals(SHM)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--fabric must be netty or shm, got '" + fabric + "'");
        }
        if (!what.equals(PINGPONG) && !what.equals(PACK)) {
            throw new MpiException(ErrorClass.ERR_ARG, "what to compare must be pingpong or pack, got '" + what + "'");
        }
        if (runSh == null) {
            runSh = SharedDir.locate().resolve("anchors").resolve("run.sh");
        }
        if (!Files.isRegularFile(runSh)) {
            throw new MpiException(ErrorClass.ERR_ARG, "no anchors' script at " + runSh);
        }
        List<String> known = what.equals(PACK)
                ? PackCases.builtInNames().stream().filter(PackVersus::compares).toList()
                : PingPongCase.standard(1).stream().map(PingPongCase::name).toList();
        if (known.stream().noneMatch(NameFilter.of(filter))) {
            throw new MpiException(ErrorClass.ERR_ARG, "--filter '" + filter + "' matches none of the cases " + what
                    + " compares: " + known);
        }
    }

    /** @return whether the pack sweep is compared (else the ping-pong) */
    boolean packs() {
        return what.equals(PACK);
    }

    /** @return whether the ping-pong runs over shared memory (else over TCP) */
    boolean sharedMemory() {
        return fabric.equals(SHM);
    }

    /** @return the cases the report prints */
    NameFilter cases() {
        return NameFilter.of(filter);
    }
}

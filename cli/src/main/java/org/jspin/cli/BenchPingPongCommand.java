package org.jspin.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspin.bench.NameFilter;
import org.jspin.bench.pingpong.PingPong;
import org.jspin.bench.pingpong.PingPongCase;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.mpi.MpiOptions;
import org.jspin.nic.NicConfig;
import org.jspin.transport.netty.NettyFabricProvider;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jspin bench pingpong}: latency and ping-pong bandwidth between two ranks. */
@Command(name = "pingpong", mixinStandardHelpOptions = true,
        description = "Ping-pong latency (1 B, 8 B, 1 KiB) and bandwidth (64 KiB, 1 MiB, 4 MiB contiguous, and a "
                + "4 MiB vector of 64 B blocks at 128 B stride), and streaming bandwidth (windows of isends), between "
                + "two ranks: threads of this JVM on the local fabric, two processes on the shm or netty fabric; medians "
                + "and percentiles of HdrHistogram-recorded round trips, measured on this machine.")
final class BenchPingPongCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--fabric", defaultValue = "local", description = "fabric between the ranks (default: ${DEFAULT-VALUE})")
    private String fabric;

    @Option(names = "--backend", defaultValue = "host", description = "NIC backend (default: ${DEFAULT-VALUE})")
    private String backend;

    @Option(names = "--eager-limit", description = "bytes up to which messages go eagerly (default: the NIC's)")
    private Integer eagerLimit;

    @Option(names = "--chunk", description = "rendezvous chunk bytes (default: the NIC's)")
    private Integer chunk;

    @Mixin
    private CaseOptions common = new CaseOptions();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        MpiOptions options = MpiOptions.fromEnvironment().withBackend(backend).withFabric(fabric);
        NicConfig nic = options.nic();
        if (chunk != null) {
            nic = nic.withChunkSize(chunk);
        }
        if (eagerLimit != null) {
            nic = nic.withEagerLimit(eagerLimit);
        }
        options = options.withNic(nic);
        List<PingPongCase> cases = NameFilter.of(common.filter).select(PingPongCase.standard(common.scale),
                PingPongCase::name);
        boolean processes = fabric.equals(NettyFabricProvider.NAME) || fabric.equals("shm");
        if (common.binding != Binding.NONE && !processes) {
            throw new MpiException(ErrorClass.ERR_ARG, "--bind-to " + common.binding + " needs --fabric shm or netty"
                    + " (ranks as processes); on --fabric " + fabric + " both ranks are threads of this JVM");
        }
        if (!common.json) {
            String rts = nic.rtsPayload() == NicConfig.FABRIC_CHOICE ? "the fabric's" : nic.rtsPayload() + " B";
            String eager = nic.eagerLimit() == NicConfig.FABRIC_CHOICE ? "the fabric's" : nic.eagerLimit() + " B";
            String chunks = nic.chunkSize() == NicConfig.FABRIC_CHOICE ? "the fabric's" : nic.chunkSize() + " B";
            out.printf("jspin bench pingpong: 2 ranks, backend %s, fabric %s (%s, bound to %s), eager limit %s, chunk %s,"
                    + " bytes with an RTS: %s; one-way time = half a round trip; stream_* = a window of isends and a"
                    + " 1-byte ack, time per window; pack/unpk GB/s = the rate of rank 0's CPU packing and unpacking"
                    + " inside the exchange (the host backend's meters; -: it packed nothing)%n", backend, fabric,
                    !processes ? "in this JVM" : fabric.equals("shm") ? "two processes, shared memory"
                            : "two processes, TCP on 127.0.0.1", common.binding, eager,
                    chunks, rts);
            PingPongOutput.header(out);
        }
        List<PingPongResult> results = processes
                ? ProcessPingPong.run(fabric, backend, common.scale, common.filter, eagerLimit, chunk, common.binding,
                        System.err)
                : PingPong.runLocal(options, cases);
        PingPongOutput.results(out, results, common.json, backend, fabric);
        return 0;
    }
}

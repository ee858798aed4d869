package org.jspin.transport.netty.join;

import java.util.Map;
import java.util.Optional;

import org.jspin.bootstrap.EndpointExchange;
import org.jspin.bootstrap.InJvmExchange;
import org.jspin.bootstrap.pmi.Pmi1Client;
import org.jspin.bootstrap.pmi.Pmi1Exchange;
import org.jspin.bootstrap.rendezvous.RendezvousClient;
import org.jspin.bootstrap.rendezvous.RendezvousServer;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.Providers;
import org.jspin.nic.launch.LaunchProvider;
import org.jspin.nic.launch.Launched;
import org.jspin.transport.netty.NettyFabricProvider;

/**
 * Reads what a launcher tells its processes and makes the job they join over the Netty fabric.
 * In order of precedence:
 *
 * <ul>
 *   <li>{@code jspin run}: {@code JSPIN_RANK}, {@code JSPIN_SIZE}, {@code JSPIN_JOB},
 *       {@code JSPIN_SECRET}, and {@code JSPIN_RENDEZVOUS}, which the launcher serves;</li>
 *   <li>MPICH's Hydra: {@code PMI_FD} (or {@code PMI_PORT} and {@code PMI_ID}), endpoints
 *       exchanged through its PMI-1 key-value space; the secret is {@code JSPIN_SECRET} if set,
 *       else made by rank 0 and shared through that space, which only the job's processes
 *       reach;</li>
 *   <li>Slurm ({@code SLURM_PROCID}, {@code SLURM_NTASKS}) and Open MPI's {@code mpirun}
 *       ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}): these share no key-value
 *       space we can reach, so the user sets {@code JSPIN_RENDEZVOUS=host:port}, served by rank 0,
 *       and {@code JSPIN_SECRET}, the same for every rank.</li>
 * </ul>
 *
 * Ranks join over the {@code shm} fabric ({@link #fabric}): shared memory between the ranks of
 * each host, TCP between hosts; {@code JSPIN_FABRIC=netty} keeps TCP between all of them.
 *
 * <p>{@code JSPIN_BIND} sets the address ranks listen on (loopback otherwise), optionally with a port
 * ({@code host:port}, {@code [v6]:port}: rank r then listens on port + r; any free port otherwise),
 * and {@code JSPIN_CONNECT_TIMEOUT} the start-up wait in seconds (30 otherwise): {@link LaunchSettings}.
 */
public final class LaunchEnvironment implements LaunchProvider {
    @Override
    public String name() {
        return "jspin/hydra/slurm/ompi";
    }

    @Override
    public Optional<Launched> detect(Map<String, String> env) {
        if (env.containsKey("JSPIN_RANK")) {
            return Optional.of(jspin(env));
        }
        if (env.containsKey("PMI_FD") || env.containsKey("PMI_PORT")) {
            return Optional.of(hydra(env));
        }
        if (env.containsKey("SLURM_PROCID")) {
            return Optional.of(rankZeroServes(env, "slurm", "SLURM_PROCID", "SLURM_NTASKS",
                    "slurm-" + env.getOrDefault("SLURM_JOB_ID", "job") + "." + env.getOrDefault("SLURM_STEP_ID", "0")));
        }
        if (env.containsKey("OMPI_COMM_WORLD_RANK")) {
            return Optional.of(rankZeroServes(env, "ompi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                    "ompi-" + env.getOrDefault("OMPI_MCA_ess_base_jobid", "job")));
        }
        return Optional.empty();
    }

    private static Launched jspin(Map<String, String> env) {
        int size = number(env, "JSPIN_SIZE", 1);
        int rank = rank(env, "JSPIN_RANK", size);
        String job = required(env, "JSPIN_JOB", "jspin run");
        String secret = required(env, "JSPIN_SECRET", "jspin run");
        String rendezvous = required(env, "JSPIN_RENDEZVOUS", "jspin run");
        EndpointExchange exchange = new RendezvousClient(rendezvous, job, secret);
        return launched(env, job, size, rank, secret, exchange, "jspin");
    }

    private static Launched hydra(Map<String, String> env) {
        Pmi1Client pmi = Pmi1Client.connect(env);
        int size = pmi.size();
        int rank = pmi.rank();
        String job = "hydra-" + pmi.kvsName();
        String secret = env.get("JSPIN_SECRET");
        if (secret == null || secret.isBlank()) {
            // rank 0 makes the secret; the KVS reaches only this job's processes (through their PMI socket)
            if (rank == 0) {
                pmi.put("jspin-secret", NettyFabricProvider.newSecret());
            }
            pmi.barrier();
            secret = pmi.get("jspin-secret");
        }
        return launched(env, job, size, rank, secret, new Pmi1Exchange(pmi), "hydra");
    }

    private static Launched rankZeroServes(Map<String, String> env, String launcher, String rankVariable,
                                           String sizeVariable, String defaultJob) {
        int size = number(env, sizeVariable, 1);
        int rank = rank(env, rankVariable, size);
        String rendezvous = env.get("JSPIN_RENDEZVOUS");
        String secret = env.get("JSPIN_SECRET");
        if (size == 1 && rendezvous == null) {
            return launched(env, defaultJob, 1, 0, secret != null ? secret : NettyFabricProvider.newSecret(),
                    new InJvmExchange(1), launcher);
        }
        if (rendezvous == null || rendezvous.isBlank()) {
            throw new MpiException(ErrorClass.ERR_OTHER, launcher + " started this process as rank " + rank + " of "
                    + size + " (" + rankVariable + ", " + sizeVariable + ") but JSPIN_RENDEZVOUS is not set; export"
                    + " JSPIN_RENDEZVOUS=host:port (rank 0's host, a free port) and JSPIN_SECRET to every rank");
        }
        if (secret == null || secret.isBlank()) {
            throw new MpiException(ErrorClass.ERR_OTHER, launcher + " job: JSPIN_SECRET is not set; export the same"
                    + " random JSPIN_SECRET (16 characters or more, e.g. $(openssl rand -hex 16)) to every rank");
        }
        String job = env.getOrDefault("JSPIN_JOB", defaultJob);
        return launched(env, job, size, rank, secret, RendezvousServer.servedByRankZero(rendezvous, job, secret, size, rank),
                launcher);
    }

    private static Launched launched(Map<String, String> env, String jobId, int size, int rank, String secret,
                                     EndpointExchange exchange, String launcher) {
        Job job = new Job(jobId, size);
        LaunchSettings settings = LaunchSettings.from(env);
        NettyLaunch launch = new NettyLaunch(secret, exchange, settings.bind(), settings.connectTimeout());
        job.attachment(NettyLaunch.KEY, NettyLaunch.class, () -> launch);
        boolean oneHost = oneHost(env, launcher, size);
        job.attachment(ONE_HOST, Boolean.class, () -> oneHost);
        return new Launched(job, rank, fabric(size), launcher);
    }

    /** The fabric of ranks that share a host, when it is on the class path. */
    public static final String SHM = "shm";
    /**
     * The job attachment ({@link Boolean}) saying whether the launcher put every rank on this host
     * ({@link #oneHost}). The shm fabric then joins through rings alone; otherwise each rank also
     * listens for TCP, and one exchange tells the ranks which of them share a host.
     */
    public static final String ONE_HOST = "jspin.launch.oneHost";

    /**
     * @return the fabric a launcher's job uses unless the user chooses one: {@code shm} (shared
     *         memory between the ranks of each host, TCP between hosts) when it is on the class
     *         path and the job has more than one rank, else {@code netty}
     * @param size ranks in the job
     */
    public static String fabric(int size) {
        return size > 1 && Providers.fabrics().contains(SHM) ? SHM : NettyFabricProvider.NAME;
    }

    /**
     * @return whether the launcher says every rank runs on this host: {@code jspin run} always;
     *         Hydra's {@code MPI_LOCALNRANKS}, Open MPI's {@code OMPI_COMM_WORLD_LOCAL_SIZE} or
     *         Slurm's {@code SLURM_NNODES} (or {@code SLURM_JOB_NUM_NODES}) saying so. False where
     *         it does not say: the ranks then find out which of them share a host as they join.
     * @param env      the process's environment
     * @param launcher which launcher started it ({@code jspin}, {@code hydra}, {@code ompi}, {@code slurm})
     * @param size     ranks in the job
     */
    public static boolean oneHost(Map<String, String> env, String launcher, int size) {
        return switch (launcher) {
            case "jspin" -> true;
            case "hydra" -> Integer.toString(size).equals(strip(env.get("MPI_LOCALNRANKS")));
            case "ompi" -> Integer.toString(size).equals(strip(env.get("OMPI_COMM_WORLD_LOCAL_SIZE")));
            case "slurm" -> "1".equals(strip(env.getOrDefault("SLURM_NNODES", env.get("SLURM_JOB_NUM_NODES"))));
            default -> false;
        };
    }

    private static String strip(String v) {
        return v == null ? null : v.strip();
    }

    private static String required(Map<String, String> env, String name, String launcher) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new MpiException(ErrorClass.ERR_OTHER, name + " is not set, but " + launcher
                    + " sets it for every rank it starts (was this process started some other way?)");
        }
        return v.trim();
    }

    private static int number(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, name + " must be a positive integer, got '" + v + "'");
        }
    }

    private static int rank(Map<String, String> env, String name, int size) {
        String v = env.get(name);
        try {
            int r = Integer.parseInt(v.trim());
            if (r < 0 || r >= size) {
                throw new MpiException(ErrorClass.ERR_OTHER, name + "=" + r + " is outside the job's [0, " + size + ")");
            }
            return r;
        } catch (NumberFormatException | NullPointerException e) {
            throw new MpiException(ErrorClass.ERR_OTHER, name + " must be a rank (an integer), got '" + v + "'");
        }
    }
}

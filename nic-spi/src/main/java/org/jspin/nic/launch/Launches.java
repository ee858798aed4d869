package org.jspin.nic.launch;

import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Asks every {@link LaunchProvider} on the class path whether a launcher started this process. If
 * none recognises the environment although it announces a job of several ranks (a launcher whose
 * bootstrap is not on the class path), that is an error rather than a run as N separate copies of
 * rank 0.
 */
public final class Launches {
    /** Variables by which launchers announce the job size, with the variable that must accompany each. */
    private static final String[][] SIZE_VARIABLES = {
            {"JSPIN_SIZE", "JSPIN_RANK"}, {"PMI_SIZE", "PMI_RANK"}, {"SLURM_NTASKS", "SLURM_PROCID"},
            {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}};

    /** Variables of which any one says a launcher started this process as a rank. */
    private static final String[] RANK_VARIABLES = {
            "JSPIN_RANK", "PMI_RANK", "PMI_FD", "PMI_PORT", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK"};

    private Launches() {
    }

    /** @return whether the environment says a launcher started this process as a rank of a job */
    public static boolean announced(Map<String, String> env) {
        for (String v : RANK_VARIABLES) {
            if (env.containsKey(v)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return this process's place in the job that launched it, or empty for a program started on its own
     * @throws MpiException ERR_OTHER when a launcher announced several ranks and bootstrap failed
     */
    public static Optional<Launched> detect(Map<String, String> env) {
        for (LaunchProvider p : ServiceLoader.load(LaunchProvider.class, Launches.class.getClassLoader())) {
            Optional<Launched> l = p.detect(env);
            if (l.isPresent()) {
                return l;
            }
        }
        for (String[] v : SIZE_VARIABLES) {
            String size = env.get(v[0]);
            if (size != null && env.containsKey(v[1]) && !size.trim().equals("1")) {
                throw new MpiException(ErrorClass.ERR_OTHER, "the environment says this process is one rank of a job ("
                        + v[0] + "=" + size + ", " + v[1] + "=" + env.get(v[1]) + ") but no launch provider on the"
                        + " class path understands it; put jspin's transport-netty module on the class path");
            }
        }
        return Optional.empty();
    }
}

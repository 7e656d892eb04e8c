import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Checks the jar of a published module: {@code META-INF/LICENSE} and {@code META-INF/NOTICE}
 * in it, and a manifest naming the module for the module path ({@code Automatic-Module-Name},
 * the name the module's pom sets in {@code automatic-module-name}) and its version. Run by
 * every published module at {@code verify}:
 * {@code java src/build/JarCheck.java <packaging> <jar> <version> <module name>}; does nothing
 * for a module whose packaging is not {@code jar}, exits 1 with one line per problem.
 */
public final class JarCheck {

    private static final String UNPUBLISHED = "dev.resilience.unpublished";

    private JarCheck() {
    }

    /**
     * Runs the check.
     * @param args the module's packaging, its jar, its version and its module name (the
     * parent's {@value #UNPUBLISHED} when the module's pom sets none)
     * @throws Exception when the jar cannot be read
     */
    public static void main(String[] args) throws Exception {
        if (!"jar".equals(args[0])) {
            return;
        }
        Path jar = Path.of(args[1]);
        String version = args[2];
        String moduleName = args[3];
        List<String> problems = new ArrayList<>();
        if (!Files.isRegularFile(jar)) {
            fail(List.of(jar + " was not built"));
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            for (String entry : List.of("META-INF/LICENSE", "META-INF/NOTICE")) {
                if (file.getEntry(entry) == null) {
                    problems.add(jar.getFileName() + " has no " + entry
                            + ": the root pom's license-files execution copies it unless maven.deploy.skip is true");
                }
            }
            Manifest manifest = file.getManifest();
            String automaticModuleName = (manifest != null)
                    ? manifest.getMainAttributes().getValue("Automatic-Module-Name") : null;
            if (moduleName.isEmpty() || moduleName.equals(UNPUBLISHED)) {
                problems.add(jar.getFileName()
                        + ": the module's pom sets no automatic-module-name property (dev.resilience.<something>)");
            }
            else if (!moduleName.equals(automaticModuleName)) {
                problems.add(jar.getFileName() + " has Automatic-Module-Name " + automaticModuleName + " instead of "
                        + moduleName + ": the root pom's maven-jar-plugin configuration writes it");
            }
            else {
                checkModuleName(jar, moduleName, problems);
            }
            String implementationVersion = (manifest != null)
                    ? manifest.getMainAttributes().getValue("Implementation-Version") : null;
            if (!version.equals(implementationVersion)) {
                problems.add(jar.getFileName() + " has Implementation-Version " + implementationVersion
                        + " instead of " + version);
            }
        }
        if (!problems.isEmpty()) {
            fail(problems);
        }
        System.out.println(jar.getFileName() + " has LICENSE, NOTICE and Automatic-Module-Name " + moduleName);
    }

    private static void checkModuleName(Path jar, String moduleName, List<String> problems) {
        try {
            ModuleDescriptor.newAutomaticModule(moduleName);
        }
        catch (IllegalArgumentException ex) {
            problems.add(jar.getFileName() + ": " + moduleName + " is not a valid module name (" + ex.getMessage() + ")");
        }
    }

    private static void fail(List<String> problems) {
        problems.forEach((problem) -> System.err.println("Jar check: " + problem));
        System.exit(1);
    }

}

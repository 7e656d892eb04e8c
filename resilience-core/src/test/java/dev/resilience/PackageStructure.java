package dev.resilience;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of a module's main code, checked by each module's
 * {@code PackageStructureTests}: no cycle between its packages, and no source file over
 * {@value #MAX_LINES} lines unless its top says why.
 *
 * <p>
 * The package graph comes from the JDK's {@code jdeps} over the module's classes, so it
 * sees what the compiler wrote, imports and fully qualified names alike; only the
 * module's own packages are nodes. The same graph by hand, from a module's folder:
 * {@code jdeps -verbose:package -e 'dev\.resilience\..*' target/classes}. A file longer
 * than the bound passes when a line above its type declaration (its Javadoc) holds a
 * sentence starting with {@value #REASON_MARKER}.
 */
public final class PackageStructure {

    static final int MAX_LINES = 400;

    static final String REASON_MARKER = "Longer than 400 lines because";

    private static final Pattern CLASS_EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+\\S.*$");

    private static final Pattern TYPE_DECLARATION = Pattern
        .compile("^(public |final |abstract |sealed |non-sealed )*(class|interface|record|enum|@interface) .*");

    private PackageStructure() {
    }

    /**
     * Checks that the packages of a module's main classes form no cycle but the known
     * ones.
     * @param anyMainClass a main class of the module, whose location is the classes
     * checked
     * @param knownCycles the cycles not yet removed, each written as the failure names
     * it; the check fails on any other cycle, and on one of these once it is gone, so
     * that the list only shrinks
     */
    public static void assertNoCycleBetweenPackages(Class<?> anyMainClass, Set<String> knownCycles)
            throws URISyntaxException {
        Path classes = Path.of(anyMainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, String> cycles = cycles(packageGraph(classes));
        Set<String> known = new TreeSet<>(knownCycles);
        known.retainAll(cycles.keySet());
        cycles.keySet().removeAll(knownCycles);
        assertThat(cycles.values()).as("package cycles in %s", classes).isEmpty();
        assertThat(known).as("cycles gone: remove them from the known cycles")
            .containsExactlyInAnyOrderElementsOf(knownCycles);
    }

    /**
     * Checks that no main source file of the module under test (Maven's {@code basedir})
     * is longer than {@value #MAX_LINES} lines unless its top says why.
     */
    public static void assertNoSourceFileOverTheBoundWithoutAReason() throws IOException {
        Path sources = Path.of(System.getProperty("basedir", ".")).resolve("src/main/java");
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                if (lines.size() > MAX_LINES && !givesReason(lines)) {
                    offenders.add(sources.relativize(file) + " (" + lines.size() + " lines)");
                }
            }
        }
        assertThat(offenders)
            .as("files over %d lines whose Javadoc has no sentence starting \"%s\"", MAX_LINES, REASON_MARKER)
            .isEmpty();
    }

    /**
     * Returns the cycles of the graph, keyed by their packages in order (starting from
     * the first by name): the shortest cycle through each package that is on one, each
     * told with the class dependencies that make its edges.
     */
    static Map<String, String> cycles(Map<String, Map<String, Set<String>>> graph) {
        Map<String, String> cycles = new TreeMap<>();
        for (Set<String> component : stronglyConnected(graph)) {
            for (String start : component) {
                List<String> cycle = shortestCycle(graph, start, component);
                List<String> packages = cycle.subList(0, cycle.size() - 1);
                int first = packages.indexOf(new TreeSet<>(packages).first());
                List<String> rotated = new ArrayList<>(packages.subList(first, packages.size()));
                rotated.addAll(packages.subList(0, first));
                rotated.add(rotated.get(0));
                cycles.putIfAbsent(String.join(" -> ", rotated), describe(rotated, graph));
            }
        }
        return cycles;
    }

    private static boolean givesReason(List<String> lines) {
        for (String line : lines) {
            if (TYPE_DECLARATION.matcher(line).matches()) {
                return false;
            }
            if (line.contains(REASON_MARKER)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns, for each package of the classes, the packages of the same classes it
     * depends on, each with the class dependencies that make the edge.
     */
    static Map<String, Map<String, Set<String>>> packageGraph(Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
            .orElseThrow(() -> new IllegalStateException("This check needs a JDK, whose jdeps it runs"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-e",
                "dev\\.resilience\\..*", classes.toString());
        assertThat(status).as("jdeps: %s", err).isZero();
        List<String[]> edges = new ArrayList<>();
        Set<String> own = new TreeSet<>();
        for (String line : out.toString().split("\\R")) {
            Matcher edge = CLASS_EDGE.matcher(line);
            if (edge.matches()) {
                edges.add(new String[] { edge.group(1), edge.group(2) });
                own.add(packageOf(edge.group(1)));
            }
        }
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        own.forEach((name) -> graph.put(name, new TreeMap<>()));
        for (String[] edge : edges) {
            String from = packageOf(edge[0]);
            String to = packageOf(edge[1]);
            if (!from.equals(to) && own.contains(to)) {
                graph.get(from)
                    .computeIfAbsent(to, (key) -> new TreeSet<>())
                    .add(simple(edge[0]) + " -> " + simple(edge[1]));
            }
        }
        return graph;
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /**
     * Tarjan's algorithm: the components of more than one package, each a set of cycles.
     */
    static List<Set<String>> stronglyConnected(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> components = new ArrayList<>();
        for (String node : graph.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, graph, index, low, stack, components);
            }
        }
        return components;
    }

    private static void connect(String node, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> components) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        for (String next : graph.get(node).keySet()) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, components);
                low.put(node, Math.min(low.get(node), low.get(next)));
            }
            else if (stack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            }
            while (!member.equals(node));
            if (component.size() > 1) {
                components.add(component);
            }
        }
    }

    /**
     * The shortest way from a package back to itself inside its component, found breadth
     * first.
     */
    private static List<String> shortestCycle(Map<String, Map<String, Set<String>>> graph, String start,
            Set<String> component) {
        Map<String, String> previous = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String node = queue.removeFirst();
            for (String next : graph.get(node).keySet()) {
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>(List.of(start));
                    for (String step = node; !step.equals(start); step = previous.get(step)) {
                        path.add(1, step);
                    }
                    path.add(start);
                    return path;
                }
                if (component.contains(next) && !previous.containsKey(next)) {
                    previous.put(next, node);
                    queue.addLast(next);
                }
            }
        }
        throw new IllegalStateException("No cycle through " + start);
    }

    private static String describe(List<String> cycle, Map<String, Map<String, Set<String>>> graph) {
        StringBuilder text = new StringBuilder(String.join(" -> ", cycle));
        for (int i = 0; i + 1 < cycle.size(); i++) {
            text.append("\n    ")
                .append(cycle.get(i))
                .append(" -> ")
                .append(cycle.get(i + 1))
                .append(": ")
                .append(graph.get(cycle.get(i)).get(cycle.get(i + 1)));
        }
        return text.toString();
    }

}

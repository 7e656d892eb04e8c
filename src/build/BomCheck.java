import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks that {@code resilience-bom} manages exactly the published modules of the reactor, at
 * {@code ${project.version}}, and carries the parent's version and metadata. A module is published
 * unless it is an aggregator ({@code pom} packaging) or sets {@code maven.deploy.skip} to
 * {@code true} (itself or through its parent poms); the modules of every profile count as well.
 * A published module may depend on another module of the reactor only if that one is published too.
 * Run by the root pom at {@code validate}: {@code java src/build/BomCheck.java <root directory>};
 * exits 1 with one line per problem.
 */
public final class BomCheck {

    private static final String BOM = "resilience-bom";

    private static final List<String> METADATA = List.of("url", "organization", "licenses", "developers", "scm",
            "issueManagement");

    private BomCheck() {
    }

    /**
     * Runs the check on the reactor whose root pom is in the given directory.
     * @param args the root directory of the reactor
     * @throws Exception when a pom cannot be read
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Element parent = read(root.resolve("pom.xml"));
        Map<String, Path> published = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        collectPublished(root, parent, published);
        Path bomDirectory = root.resolve(BOM);
        if (!Files.exists(bomDirectory.resolve("pom.xml")) || !modules(parent).contains(BOM)) {
            fail(List.of(BOM + " is not a module of " + root.resolve("pom.xml")));
        }
        Element bom = read(bomDirectory.resolve("pom.xml"));
        if (!text(bom, "version").equals(text(parent, "version"))) {
            problems.add(BOM + " has version " + text(bom, "version") + ", the parent " + text(parent, "version")
                    + ": set the <version> of " + BOM + "/pom.xml to " + text(parent, "version"));
        }
        if (!text(bom, "groupId").equals(text(parent, "groupId"))) {
            problems.add(BOM + " has groupId " + text(bom, "groupId") + ", the parent " + text(parent, "groupId")
                    + ": set the <groupId> of " + BOM + "/pom.xml to " + text(parent, "groupId"));
        }
        for (String name : METADATA) {
            if (!normalized(child(bom, name)).equals(normalized(child(parent, name)))) {
                problems.add(BOM + " <" + name + "> differs from the parent's: copy the parent's <" + name
                        + "> into " + BOM + "/pom.xml (the BOM has no parent, so it repeats the metadata)");
            }
        }
        TreeSet<String> managed = new TreeSet<>();
        Element management = child(bom, "dependencyManagement");
        Element dependencies = (management != null) ? child(management, "dependencies") : null;
        for (Element dependency : children(dependencies, "dependency")) {
            String artifactId = text(dependency, "artifactId");
            managed.add(artifactId);
            if (!published.containsKey(artifactId)) {
                problems.add(BOM + " manages " + artifactId + ", which is not a published module of the reactor: "
                        + "remove it from " + BOM + "/pom.xml, or add the module and leave maven.deploy.skip unset");
            }
            if (!"${project.version}".equals(text(dependency, "version"))) {
                problems.add(BOM + " gives " + artifactId + " the version " + text(dependency, "version")
                        + " instead of ${project.version}");
            }
            String groupId = text(dependency, "groupId");
            if (!groupId.equals(text(parent, "groupId")) && !groupId.equals("${project.groupId}")) {
                problems.add(BOM + " gives " + artifactId + " the groupId " + groupId + ": write ${project.groupId}");
            }
        }
        for (Map.Entry<String, Path> module : published.entrySet()) {
            Element modulePom = read(module.getValue().resolve("pom.xml"));
            for (Element dependency : children(child(modulePom, "dependencies"), "dependency")) {
                String artifactId = text(dependency, "artifactId");
                String groupId = text(dependency, "groupId");
                boolean ours = groupId.equals(text(parent, "groupId")) || groupId.equals("${project.groupId}");
                if (ours && !"test".equals(text(dependency, "scope")) && !published.containsKey(artifactId)) {
                    problems.add("the published module " + module.getKey() + " depends on " + artifactId
                            + ", which is not published, so an application could not resolve " + module.getKey()
                            + ": publish " + artifactId + " (and add it to "
                            + root.relativize(bomDirectory.resolve("pom.xml")) + ") or give the dependency <scope>test");
                }
            }
        }
        published.forEach((artifactId, directory) -> {
            if (!managed.contains(artifactId)) {
                problems.add(BOM + " does not manage the published module " + artifactId + " (" + root.relativize(directory)
                        + "): add it to " + root.relativize(bomDirectory.resolve("pom.xml"))
                        + ", or set maven.deploy.skip to true in its pom if it is not published");
            }
        });
        if (!problems.isEmpty()) {
            fail(problems);
        }
        System.out.println(BOM + " manages the " + published.size() + " published modules: "
                + String.join(", ", published.keySet()));
    }

    private static void collectPublished(Path directory, Element pom, Map<String, Path> published) throws Exception {
        for (String module : modules(pom)) {
            Path moduleDirectory = directory.resolve(module).normalize();
            Element modulePom = read(moduleDirectory.resolve("pom.xml"));
            String packaging = text(modulePom, "packaging");
            if ("pom".equals(packaging)) {
                collectPublished(moduleDirectory, modulePom, published);
            }
            else if (!deploySkipped(moduleDirectory, modulePom)) {
                published.put(text(modulePom, "artifactId"), moduleDirectory);
            }
        }
    }

    /**
     * Reads {@code maven.deploy.skip} as Maven does: from the pom's own properties, else
     * from its parent's, up the parents found on disk at their {@code relativePath}.
     */
    private static boolean deploySkipped(Path directory, Element pom) throws Exception {
        Element properties = child(pom, "properties");
        if (properties != null && child(properties, "maven.deploy.skip") != null) {
            return "true".equals(text(properties, "maven.deploy.skip"));
        }
        Element parent = child(pom, "parent");
        if (parent == null) {
            return false;
        }
        Element relativePath = child(parent, "relativePath");
        String location = (relativePath != null) ? relativePath.getTextContent().trim() : "../pom.xml";
        if (location.isEmpty()) {
            return false;
        }
        Path parentPom = directory.resolve(location).normalize();
        if (Files.isDirectory(parentPom)) {
            parentPom = parentPom.resolve("pom.xml");
        }
        if (!Files.isRegularFile(parentPom)) {
            return false;
        }
        Element parentModel = read(parentPom);
        if (!text(parentModel, "artifactId").equals(text(parent, "artifactId"))) {
            return false;
        }
        return deploySkipped(parentPom.getParent(), parentModel);
    }

    private static List<String> modules(Element pom) {
        List<String> modules = new ArrayList<>();
        List<Element> moduleLists = new ArrayList<>(children(pom, "modules"));
        for (Element profile : children(child(pom, "profiles"), "profile")) {
            moduleLists.addAll(children(profile, "modules"));
        }
        for (Element moduleList : moduleLists) {
            for (Element module : children(moduleList, "module")) {
                String name = module.getTextContent().trim();
                if (!modules.contains(name)) {
                    modules.add(name);
                }
            }
        }
        return modules;
    }

    private static Element read(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent == null) {
            return found;
        }
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return (element != null) ? element.getTextContent().trim() : "";
    }

    private static String normalized(Element element) {
        if (element == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child) {
                text.append('<').append(child.getTagName()).append('>').append(normalized(child));
            }
            else if (node.getNodeType() == Node.TEXT_NODE) {
                text.append(node.getTextContent().trim());
            }
        }
        return text.toString();
    }

    private static void fail(List<String> problems) {
        problems.forEach((problem) -> System.err.println("BOM check: " + problem));
        System.exit(1);
    }

}

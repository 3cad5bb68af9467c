import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;

/**
 * Creates or replaces SCRAM credentials on a running Kafka cluster, with passwords read from stdin
 * so they appear in no process's argv (kafka-configs and kafka-storage take them as arguments).
 * Run in Java's single-file source mode with the broker's classpath (@baton/local-infra does):
 *
 * <pre>java -cp KAFKA_CLASSPATH infra/kafka/ScramUsers.java BOOTSTRAP ADMIN_CLIENT_PROPERTIES</pre>
 *
 * stdin holds one user a line: {@code NAME MECHANISM PASSWORD}, MECHANISM being SCRAM-SHA-256 or
 * SCRAM-SHA-512, PASSWORD the rest of the line. The admin client connects with the properties
 * file's settings (a super user's TLS identity). Exits 0 once the cluster describes every
 * credential written, printing only the users' names and mechanisms, never a password.
 */
public class ScramUsers {
  private static final int ITERATIONS = 8192;
  private static final long TIMEOUT_MS = 60_000;

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ScramUsers BOOTSTRAP ADMIN_CLIENT_PROPERTIES < 'NAME MECHANISM PASSWORD' lines");
      System.exit(2);
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);

    List<UserScramCredentialAlteration> upserts = new ArrayList<>();
    Map<String, List<ScramMechanism>> expected = new HashMap<>();
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int lineNumber = 0;
    for (String line; (line = stdin.readLine()) != null; ) {
      lineNumber += 1;
      if (line.isEmpty()) continue;
      String[] fields = line.split(" ", 3);
      ScramMechanism mechanism = fields.length == 3 ? ScramMechanism.fromMechanismName(fields[1]) : ScramMechanism.UNKNOWN;
      if (mechanism == ScramMechanism.UNKNOWN || fields[0].isEmpty() || fields[2].isEmpty()) {
        // The line itself may hold a password: name only its number.
        System.err.println("stdin line " + lineNumber + " is not 'NAME SCRAM-SHA-256|SCRAM-SHA-512 PASSWORD'");
        System.exit(2);
      }
      upserts.add(new UserScramCredentialUpsertion(fields[0], new ScramCredentialInfo(mechanism, ITERATIONS), fields[2]));
      expected.computeIfAbsent(fields[0], name -> new ArrayList<>()).add(mechanism);
    }
    if (upserts.isEmpty()) return;

    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
    try (Admin admin = Admin.create(properties)) {
      admin.alterUserScramCredentials(upserts).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      // The controller has committed them; wait until the broker's metadata holds them too.
      for (long backoffMs = 50; ; backoffMs = Math.min(backoffMs * 2, 500)) {
        if (described(admin, expected)) break;
        if (System.currentTimeMillis() > deadline) {
          System.err.println("the broker did not describe the new SCRAM credentials within " + TIMEOUT_MS + " ms");
          System.exit(1);
        }
        Thread.sleep(backoffMs);
      }
    }
    expected.forEach((name, mechanisms) -> System.out.println("scram credentials set: " + name + " " + mechanisms));
  }

  private static boolean described(Admin admin, Map<String, List<ScramMechanism>> expected) throws Exception {
    Map<String, UserScramCredentialsDescription> descriptions;
    try {
      descriptions = admin.describeUserScramCredentials(new ArrayList<>(expected.keySet())).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException notYet) {
      // ResourceNotFoundException: a user the broker does not know of yet.
      return false;
    }
    for (Map.Entry<String, List<ScramMechanism>> user : expected.entrySet()) {
      UserScramCredentialsDescription description = descriptions.get(user.getKey());
      if (description == null) return false;
      Set<ScramMechanism> present = new java.util.HashSet<>();
      description.credentialInfos().forEach(info -> present.add(info.mechanism()));
      if (!present.containsAll(user.getValue())) return false;
    }
    return true;
  }
}

package dev.quaestor.policy.whatif;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Cidr;
import dev.quaestor.policy.Decision;
import dev.quaestor.policy.Explanation;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.TimeWindow;
import dev.quaestor.uri.CanonicalUri;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * What one fact's record does not hold but a rule that could decide it depends on, and every way it could have been:
 * each subset of the scopes and groups such rules ask for (the record keeps neither), each stretch of the fact's
 * hour in which no time window opens or closes (a fact keeps its hour, not its instant), and, for a field stored
 * keyed-hashed, each value the rules name (and one they do not). A replay judges the fact under each of these
 * ({@link #forEach}); when there are none, the record itself is the one way.
 *
 * <p>Which scopes and groups matter is asked of the engine itself: a caller holding every scope and group the set
 * names is explained, and the rules that match it are the only ones any assignment could bring in (holding more
 * scopes or groups never makes a rule stop applying to a caller).
 */
final class Unknowns {

    /** More ways than this and the fact is not judged: it names too much the record lacks. */
    static final int MAX_WAYS = 4096;
    static final String HASHED = "hmac:";

    private final List<String> missing = new ArrayList<>();
    private final List<Known> knowns;
    private final List<String> scopes;
    private final List<String> groups;
    private final Identity base;
    /** Each set's decision, when the explanation that found the deciding rules already gave it (one way only). */
    private final java.util.Map<Census, Decision> decided = new java.util.IdentityHashMap<>();

    /** A value of the fields the record may hold hashed, and an instant in the hour. */
    private record Known(String client, String tenant, String ip, Instant time) {
    }

    private Unknowns(Identity base, List<Known> knowns, List<String> scopes, List<String> groups) {
        this.base = base;
        this.knowns = knowns;
        this.scopes = scopes;
        this.groups = groups;
    }

    /**
     * @param instants the instants of the fact's hour at which a window of {@code sets} opens or closes
     *                 ({@link #instants}), which facts of one hour share
     */
    static Unknowns of(Fact f, Action action, CanonicalUri uri, List<Census> sets, List<Instant> instants) {
        var base = new Identity(f.subject(), f.client(), f.tenant(), new HashSet<>(f.roles()), Set.of(), Set.of());
        List<String> clients = java.util.Collections.singletonList(f.client());
        List<String> tenants = java.util.Collections.singletonList(f.tenant());
        List<String> ips = java.util.Collections.singletonList(f.ip());
        if (isHashed(f.client())) {
            clients = candidates(f.client(), sets.stream().flatMap(c -> c.clients.stream()).toList());
        }
        if (isHashed(f.tenant())) {
            var tenantNames = new ArrayList<String>();
            for (Census c : sets) {
                tenantNames.addAll(c.tenants);
                if (c.bindsTenant) {
                    tenantNames.add(uri.authority());
                    tenantNames.addAll(uri.segments());
                }
            }
            tenants = candidates(f.tenant(), tenantNames);
        }
        if (isHashed(f.ip())) {
            ips = candidates(f.ip(), sets.stream().flatMap(c -> c.networks.stream()).map(Unknowns::addressIn).toList());
        }
        var scopes = new TreeSet<String>();
        var groups = new TreeSet<String>();
        var deciding = new ArrayList<Rule>();
        var explained = new java.util.IdentityHashMap<Census, Decision>();
        List<Known> every = knowns(clients, tenants, ips, instants);
        for (Census c : sets) {
            if ((c.namesNoScopeOrGroup() && every.size() == 1) || every.size() > MAX_WAYS) {
                continue;
            }
            for (Known k : every) {
                var most = new Identity(f.subject(), k.client, k.tenant, base.roles(), c.groups, c.scopes);
                var asKnown = new Identity(f.subject(), k.client, k.tenant, base.roles(), Set.of(), Set.of());
                Explanation e = c.set.explain(most, action, uri, new Facts(k.ip, k.time));
                explained.put(c, e.decision());
                for (String id : concat(e.denyRules(), e.allowRules())) {
                    Rule r = c.rules.get(id);
                    deciding.add(r);
                    scopes.addAll(r.when().scopes());
                    if (!r.subjects().matches(asKnown)) {
                        for (String g : r.subjects().groups()) {
                            if (!g.equals("*")) {
                                groups.add(g);
                            }
                        }
                    }
                }
            }
        }
        // A stored hash or the hour's stretches matter only if a rule that could decide looks at them.
        if (every.size() > 1 && every.size() <= MAX_WAYS) {
            if (deciding.stream().noneMatch(r -> named(r.subjects().clients()))) {
                clients = java.util.Collections.singletonList(f.client());
            }
            if (deciding.stream().noneMatch(r -> named(r.subjects().tenants()) || r.resources().stream()
                    .anyMatch(p -> p.source().contains("${tenant}")))) {
                tenants = java.util.Collections.singletonList(f.tenant());
            }
            if (deciding.stream().allMatch(r -> r.when().sourceCidrs().isEmpty())) {
                ips = java.util.Collections.singletonList(f.ip());
            }
            if (deciding.stream().allMatch(r -> r.when().window() == null)) {
                instants = List.of(f.hour());
            }
        }
        var u = new Unknowns(base, knowns(clients, tenants, ips, instants), List.copyOf(scopes), List.copyOf(groups));
        if (every.size() == 1 && scopes.isEmpty() && groups.isEmpty()) {
            // Nothing the record lacks decides: the caller holding every scope and group is judged as the record's.
            u.decided.putAll(explained);
        }
        scopes.forEach(s -> u.missing.add("scope " + s));
        groups.forEach(g -> u.missing.add("group " + g));
        if (clients.size() > 1) {
            u.missing.add("client (stored hashed)");
        }
        if (tenants.size() > 1) {
            u.missing.add("tenant (stored hashed)");
        }
        if (ips.size() > 1) {
            u.missing.add("source address (stored hashed)");
        }
        if (instants.size() > 1) {
            u.missing.add("time within the hour");
        }
        return u;
    }

    private static List<Known> knowns(List<String> clients, List<String> tenants, List<String> ips, List<Instant> instants) {
        var out = new ArrayList<Known>();
        for (String c : clients) {
            for (String t : tenants) {
                for (String ip : ips) {
                    for (Instant at : instants) {
                        out.add(new Known(c, t, ip, at));
                    }
                }
            }
        }
        return out;
    }

    private static boolean named(Set<String> values) {
        return values.stream().anyMatch(v -> !v.equals("*"));
    }

    /**
     * The set's decision for a fact with one way, if finding its deciding rules already gave it; null otherwise. The
     * rules it names are every matching one, not the few a served decision records.
     */
    Decision decided(Census set) {
        return decided.get(set);
    }

    /** The facts the record lacks that a deciding rule depends on, named for the report; empty if none. */
    List<String> missing() {
        return missing;
    }

    boolean tooMany() {
        return scopes.size() + groups.size() > 12 || (long) knowns.size() << (scopes.size() + groups.size()) > MAX_WAYS;
    }

    /** Each way the request could have been, as the caller and circumstances the engine judges. */
    void forEach(BiConsumer<Identity, Facts> way) {
        int bits = scopes.size() + groups.size();
        for (Known k : knowns) {
            for (int mask = 0; mask < 1 << bits; mask++) {
                var s = new HashSet<String>();
                var g = new HashSet<String>();
                for (int i = 0; i < bits; i++) {
                    if ((mask & 1 << i) != 0) {
                        if (i < scopes.size()) {
                            s.add(scopes.get(i));
                        } else {
                            g.add(groups.get(i - scopes.size()));
                        }
                    }
                }
                way.accept(new Identity(base.subject(), k.client, k.tenant, base.roles(), g, s), new Facts(k.ip, k.time));
            }
        }
    }

    /** The stored value; if it is stored hashed and the rules name values, those too (the hash stands for any other). */
    private static List<String> candidates(String stored, List<String> named) {
        if (!isHashed(stored) || named.isEmpty()) {
            return java.util.Collections.singletonList(stored);
        }
        var out = new LinkedHashSet<String>();
        out.add(stored);
        out.addAll(named);
        return List.copyOf(out);
    }

    private static boolean isHashed(String v) {
        return v != null && v.startsWith(HASHED);
    }

    private static String addressIn(Cidr c) {
        try {
            return InetAddress.getByAddress(c.network()).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The instants of the hour at which some window of the sets opens, closes or changes day, and the hour's start:
     * between two of them, every window is either open or shut throughout.
     */
    static List<Instant> instants(Instant hour, List<Census> sets) {
        Instant end = hour.plus(Duration.ofHours(1));
        var out = new TreeSet<Instant>();
        out.add(hour);
        for (Census c : sets) {
            for (TimeWindow w : c.windows) {
                for (LocalTime t : List.of(w.from(), w.to(), LocalTime.MIDNIGHT)) {
                    edges(hour, end, w.zone(), t, out);
                }
            }
        }
        return List.copyOf(out);
    }

    private static void edges(Instant from, Instant to, ZoneId zone, LocalTime t, TreeSet<Instant> into) {
        LocalDate first = from.atZone(zone).toLocalDate();
        LocalDate last = to.atZone(zone).toLocalDate();
        for (LocalDate d = first; !d.isAfter(last); d = d.plusDays(1)) {
            Instant at = ZonedDateTime.of(d, t, zone).toInstant();
            if (at.isAfter(from) && at.isBefore(to)) {
                into.add(at);
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        var out = new ArrayList<String>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }
}

package dev.quaestor.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by Debian's chromedriver through Selenium. Both paths are pinned, so
 * Selenium Manager never looks for (or downloads) a browser or a driver; if either is missing the test fails
 * naming the packages to install.
 */
public final class Browser {

    public static final String CHROMIUM = System.getProperty("quaestor.chromium", "/usr/bin/chromium");
    public static final String CHROMEDRIVER = System.getProperty("quaestor.chromedriver", "/usr/bin/chromedriver");

    private Browser() {
    }

    /** A new browser with a fresh profile (no cookies), 1360×900. */
    public static WebDriver start() throws Exception {
        for (String f : new String[] {CHROMIUM, CHROMEDRIVER}) {
            if (!new File(f).canExecute()) {
                throw new IllegalStateException(f + " is missing: the console's browser tests need Debian's Chromium and its "
                        + "driver (apt-get install chromium chromium-driver; .ci/run installs them)");
            }
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        Path profile = Files.createTempDirectory("quaestor-chromium-");
        profile.toFile().deleteOnExit();
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1360,900",
                "--user-data-dir=" + profile);
        if ("root".equals(System.getProperty("user.name"))) {
            options.addArguments("--no-sandbox"); // Chromium refuses to start its sandbox as root
        }
        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        driver.manage().window().setSize(new Dimension(1360, 900));
        return driver;
    }

    /** Opens {@code url} (a console page), signs in on the test issuer's form as {@code user}, and waits to be back. */
    public static void signIn(WebDriver driver, String url, String user) {
        driver.get(url);
        var wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        driver.findElement(By.id("username")).sendKeys(user);
        driver.findElement(By.id("password")).sendKeys(user);
        driver.findElement(By.id("kc-login")).click();
        wait.until(d -> d.getCurrentUrl().contains("/console"));
    }

    /**
     * Saves the page as {@code name} (a PNG, the window {@code height} pixels high) in the directory the system property
     * {@code quaestor.screenshots} names; does nothing without it.
     */
    public static void screenshot(WebDriver driver, String name, int height) throws Exception {
        String dir = System.getProperty("quaestor.screenshots");
        if (dir == null || dir.isBlank()) {
            return;
        }
        driver.manage().window().setSize(new Dimension(1360, height));
        Thread.sleep(100); // the resized window lays itself out again
        Files.createDirectories(Path.of(dir));
        Files.write(Path.of(dir, name), ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
        driver.manage().window().setSize(new Dimension(1360, 900));
    }

    public static WebDriverWait waiting(WebDriver driver) {
        // A condition that reads an element of a page being replaced (a form just submitted) finds it stale: that is
        // "not yet", asked again, like an element not there yet. Chromium reports such an element either as stale or,
        // when the page is replaced during the command, as an inspector error saying the node no longer belongs to
        // the document; the second is turned into the first.
        var wait = new WebDriverWait(driver, Duration.ofSeconds(20)) {
            @Override
            public <V> V until(Function<? super WebDriver, ? extends V> isTrue) {
                return super.until(d -> {
                    try {
                        return isTrue.apply(d);
                    } catch (WebDriverException e) {
                        if (e.getMessage() != null && e.getMessage().contains("does not belong to the document")) {
                            throw new StaleElementReferenceException(e.getMessage(), e);
                        }
                        throw e;
                    }
                });
            }
        };
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }
}

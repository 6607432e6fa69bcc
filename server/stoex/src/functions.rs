//! The function names the Palladio analysers know (stoex.md section 2), plus
//! the lowercase `log`/`exp` that CIPM writes, with their arities and the
//! number the evaluator uses for them.

/// How many arguments a function takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
    /// Palladio knows the name but documents no signature.
    Unspecified,
}

impl Arity {
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
            Arity::Unspecified => true,
        }
    }

    pub fn describe(self) -> String {
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        match self {
            Arity::Exactly(k) => format!("{k} argument{}", plural(k)),
            Arity::AtLeast(k) => format!("at least {k} argument{}", plural(k)),
            Arity::Unspecified => "any number of arguments".to_string(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A probability distribution; the evaluator uses its mean.
    Distribution,
    /// A deterministic helper such as `Sqrt`.
    Helper,
}

#[derive(Clone, Copy, Debug)]
pub struct FunctionInfo {
    pub name: &'static str,
    pub arity: Arity,
    pub kind: FunctionKind,
    /// `false` for names only other tools write (lowercase `log`, `exp`):
    /// they parse, but Palladio's analysers reject them.
    pub known_to_palladio: bool,
    /// What the function is, and what [`crate::eval`] computes for it.
    pub doc: &'static str,
}

const fn f(
    name: &'static str,
    arity: Arity,
    kind: FunctionKind,
    known_to_palladio: bool,
    doc: &'static str,
) -> FunctionInfo {
    FunctionInfo {
        name,
        arity,
        kind,
        known_to_palladio,
        doc,
    }
}

use Arity::*;
use FunctionKind::*;

pub const FUNCTIONS: &[FunctionInfo] = &[
    f(
        "Exp",
        Exactly(1),
        Distribution,
        true,
        "exponential distribution with rate lambda; evaluates to its mean 1/lambda",
    ),
    f(
        "Norm",
        Exactly(2),
        Distribution,
        true,
        "normal distribution (mu, sigma); evaluates to mu",
    ),
    f(
        "Lognorm",
        Exactly(2),
        Distribution,
        true,
        "log-normal distribution (mu, sigma); evaluates to exp(mu + sigma^2/2)",
    ),
    f(
        "LognormMoments",
        Exactly(2),
        Distribution,
        true,
        "log-normal distribution given (mean, stdev); evaluates to mean",
    ),
    f(
        "Gamma",
        Exactly(2),
        Distribution,
        true,
        "gamma distribution (alpha, theta); evaluates to alpha*theta",
    ),
    f(
        "GammaMoments",
        Exactly(2),
        Distribution,
        true,
        "gamma distribution given (mean, coeffVar); evaluates to mean",
    ),
    f(
        "UniDouble",
        Exactly(2),
        Distribution,
        true,
        "continuous uniform distribution on [a, b]; evaluates to (a+b)/2",
    ),
    f(
        "UniInt",
        Exactly(2),
        Distribution,
        true,
        "discrete uniform distribution on {i..j}; evaluates to (i+j)/2",
    ),
    f(
        "Pois",
        Exactly(1),
        Distribution,
        true,
        "Poisson distribution with rate lambda; evaluates to lambda",
    ),
    f(
        "Binom",
        Exactly(2),
        Distribution,
        true,
        "binomial distribution (n, p); evaluates to n*p",
    ),
    f(
        "Trunc",
        Exactly(1),
        Helper,
        true,
        "rounds down (floor), as stoex.md documents",
    ),
    f(
        "Round",
        Exactly(1),
        Helper,
        true,
        "rounds half up, like Java's Math.round: floor(x + 0.5)",
    ),
    f("Ceil", Exactly(1), Helper, true, "rounds up"),
    f(
        "Log",
        Exactly(2),
        Helper,
        true,
        "Palladio's Log(base, value): ln(value)/ln(base)",
    ),
    f("Sqrt", Exactly(1), Helper, true, "square root"),
    f("Min", AtLeast(1), Helper, true, "smallest argument"),
    f("Max", AtLeast(1), Helper, true, "largest argument"),
    f(
        "MinDeviation",
        Unspecified,
        Helper,
        true,
        "known to Palladio; not evaluated by Beagle",
    ),
    f(
        "MaxDeviation",
        Unspecified,
        Helper,
        true,
        "known to Palladio; not evaluated by Beagle",
    ),
    f(
        "log",
        Exactly(1),
        Helper,
        false,
        "natural logarithm (written by CIPM; unknown to Palladio)",
    ),
    f(
        "exp",
        Exactly(1),
        Helper,
        false,
        "e^x (written by CIPM; unknown to Palladio)",
    ),
];

/// Looks a function up by its exact, case-sensitive name.
pub fn lookup(name: &str) -> Option<&'static FunctionInfo> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

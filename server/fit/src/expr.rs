//! The expression tree every analyser fits and every printer reads.
//!
//! Variables are column indices (`Var(0)` is the first input column, printed `x1` in the infix
//! grammar and with its PCM name in StoEx). Conditions are a separate type ([`Cond`]), so a
//! condition can never stand where a number is expected, as in both target grammars.
//!
//! Semantics are IEEE double arithmetic without error checks: `log(-1)` is NaN, `1/0` is
//! infinite. The analysers treat a non-finite prediction as an invalid model.

use std::collections::BTreeSet;

/// Unary operators and functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Prefix minus.
    Neg,
    /// `e^a`.
    Exp,
    /// Natural logarithm.
    Log,
    /// Base-2 logarithm (`n log n` laws read better with it; StoEx `Log(2, a)`).
    Log2,
    Sqrt,
    /// Round down. StoEx `Trunc`, which Palladio defines for non-negative arguments.
    Floor,
    Ceil,
    Abs,
}

/// Binary arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
}

/// Comparison operators of a [`Cond::Cmp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Gt,
    Ge,
    Lt,
    Le,
    Eq,
    Ne,
}

/// A numeric expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(f64),
    /// Input column (0-based).
    Var(usize),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if(cond, then, else)`.
    If(Box<Cond>, Box<Expr>, Box<Expr>),
}

/// A boolean condition (only inside [`Expr::If`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Cmp(CmpOp, Expr, Expr),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
}

impl Cond {
    /// Whether a conditional expression appears in the comparison.
    pub fn has_conditionals(&self) -> bool {
        match self {
            Cond::Cmp(_, a, b) => a.conditionals() + b.conditionals() > 0,
            Cond::And(a, b) | Cond::Or(a, b) => a.has_conditionals() || b.has_conditionals(),
            Cond::Not(a) => a.has_conditionals(),
        }
    }
}

impl UnaryOp {
    pub const ALL: [UnaryOp; 8] = [
        UnaryOp::Neg,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Log2,
        UnaryOp::Sqrt,
        UnaryOp::Floor,
        UnaryOp::Ceil,
        UnaryOp::Abs,
    ];

    /// Applies the operator to one value.
    #[inline]
    pub fn apply(self, a: f64) -> f64 {
        match self {
            UnaryOp::Neg => -a,
            UnaryOp::Exp => a.exp(),
            UnaryOp::Log => a.ln(),
            UnaryOp::Log2 => a.log2(),
            UnaryOp::Sqrt => a.sqrt(),
            UnaryOp::Floor => a.floor(),
            UnaryOp::Ceil => a.ceil(),
            UnaryOp::Abs => a.abs(),
        }
    }

    /// The function name in the infix grammar (`None` for prefix minus).
    pub fn infix_name(self) -> Option<&'static str> {
        Some(match self {
            UnaryOp::Neg => return None,
            UnaryOp::Exp => "exp",
            UnaryOp::Log => "log",
            UnaryOp::Log2 => "log2",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Floor => "floor",
            UnaryOp::Ceil => "ceil",
            UnaryOp::Abs => "abs",
        })
    }
}

impl BinaryOp {
    pub const ALL: [BinaryOp; 5] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Pow,
    ];

    #[inline]
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::Div => a / b,
            BinaryOp::Pow => pow(a, b),
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Pow => "^",
        }
    }
}

/// `a^b`, with exact small integer exponents (`x^2` is `x*x`, as every printer's reader computes it
/// to within an ulp anyway).
#[inline]
pub fn pow(a: f64, b: f64) -> f64 {
    if b == 2.0 {
        a * a
    } else if b == 3.0 {
        a * a * a
    } else {
        a.powf(b)
    }
}

impl CmpOp {
    #[inline]
    pub fn apply(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }

    /// The operator in the infix grammar (StoEx writes `<>` for `!=`).
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Constructors.
// ---------------------------------------------------------------------------------------------

impl Expr {
    pub fn constant(v: f64) -> Expr {
        Expr::Const(v)
    }

    pub fn var(i: usize) -> Expr {
        Expr::Var(i)
    }

    pub fn unary(op: UnaryOp, a: Expr) -> Expr {
        Expr::Unary(op, Box::new(a))
    }

    pub fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    pub fn pow(self, exponent: Expr) -> Expr {
        Expr::binary(BinaryOp::Pow, self, exponent)
    }

    pub fn powi(self, exponent: i32) -> Expr {
        self.pow(Expr::Const(f64::from(exponent)))
    }

    pub fn exp(self) -> Expr {
        Expr::unary(UnaryOp::Exp, self)
    }

    pub fn ln(self) -> Expr {
        Expr::unary(UnaryOp::Log, self)
    }

    pub fn log2(self) -> Expr {
        Expr::unary(UnaryOp::Log2, self)
    }

    pub fn sqrt(self) -> Expr {
        Expr::unary(UnaryOp::Sqrt, self)
    }

    pub fn floor(self) -> Expr {
        Expr::unary(UnaryOp::Floor, self)
    }

    pub fn ceil(self) -> Expr {
        Expr::unary(UnaryOp::Ceil, self)
    }

    pub fn abs(self) -> Expr {
        Expr::unary(UnaryOp::Abs, self)
    }

    pub fn if_else(cond: Cond, then: Expr, else_: Expr) -> Expr {
        Expr::If(Box::new(cond), Box::new(then), Box::new(else_))
    }

    /// The value when the expression has no variables, else `None`.
    pub fn as_const(&self) -> Option<f64> {
        match self {
            Expr::Const(v) => Some(*v),
            _ => None,
        }
    }
}

impl Cond {
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Cond {
        Cond::Cmp(op, a, b)
    }

    /// `x_i > t`, the split condition of the threshold analyser.
    pub fn var_gt(i: usize, t: f64) -> Cond {
        Cond::Cmp(CmpOp::Gt, Expr::Var(i), Expr::Const(t))
    }

    pub fn and(self, other: Cond) -> Cond {
        Cond::And(Box::new(self), Box::new(other))
    }

    pub fn or(self, other: Cond) -> Cond {
        Cond::Or(Box::new(self), Box::new(other))
    }

    pub fn negate(self) -> Cond {
        Cond::Not(Box::new(self))
    }
}

macro_rules! impl_op {
    ($trait:ident, $method:ident, $op:expr) => {
        impl std::ops::$trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                Expr::binary($op, self, rhs)
            }
        }
        impl std::ops::$trait<f64> for Expr {
            type Output = Expr;
            fn $method(self, rhs: f64) -> Expr {
                Expr::binary($op, self, Expr::Const(rhs))
            }
        }
        impl std::ops::$trait<Expr> for f64 {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                Expr::binary($op, Expr::Const(self), rhs)
            }
        }
    };
}

impl_op!(Add, add, BinaryOp::Add);
impl_op!(Sub, sub, BinaryOp::Sub);
impl_op!(Mul, mul, BinaryOp::Mul);
impl_op!(Div, div, BinaryOp::Div);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::unary(UnaryOp::Neg, self)
    }
}

// ---------------------------------------------------------------------------------------------
// Complexity.
// ---------------------------------------------------------------------------------------------

/// The complexity measures the fitness penalises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Complexity {
    /// Number of nodes, condition nodes included (`x1 + 2` has 3).
    pub size: usize,
    /// Longest path from the root to a leaf, in nodes (a leaf alone has depth 1).
    pub depth: usize,
    /// Distinct input columns used, ascending.
    pub variables: Vec<usize>,
    /// Number of constant leaves.
    pub constants: usize,
}

impl Expr {
    /// Number of nodes, condition nodes included.
    pub fn size(&self) -> usize {
        match self {
            Expr::Const(_) | Expr::Var(_) => 1,
            Expr::Unary(_, a) => 1 + a.size(),
            Expr::Binary(_, a, b) => 1 + a.size() + b.size(),
            Expr::If(c, a, b) => 1 + c.size() + a.size() + b.size(),
        }
    }

    /// Number of conditionals (`if`, hinges included).
    pub fn conditionals(&self) -> usize {
        match self {
            Expr::Const(_) | Expr::Var(_) => 0,
            Expr::Unary(_, a) => a.conditionals(),
            Expr::Binary(_, a, b) => a.conditionals() + b.conditionals(),
            Expr::If(_, a, b) => 1 + a.conditionals() + b.conditionals(),
        }
    }

    /// Whether a conditional has another one in its condition or its branches.
    pub fn nested_conditionals(&self) -> bool {
        match self {
            Expr::Const(_) | Expr::Var(_) => false,
            Expr::Unary(_, a) => a.nested_conditionals(),
            Expr::Binary(_, a, b) => a.nested_conditionals() || b.nested_conditionals(),
            Expr::If(c, a, b) => a.conditionals() + b.conditionals() > 0 || c.has_conditionals(),
        }
    }

    /// Longest root-to-leaf path in nodes.
    pub fn depth(&self) -> usize {
        match self {
            Expr::Const(_) | Expr::Var(_) => 1,
            Expr::Unary(_, a) => 1 + a.depth(),
            Expr::Binary(_, a, b) => 1 + a.depth().max(b.depth()),
            Expr::If(c, a, b) => 1 + c.depth().max(a.depth()).max(b.depth()),
        }
    }

    /// Distinct input columns used, ascending.
    pub fn variables(&self) -> Vec<usize> {
        let mut set = BTreeSet::new();
        self.collect_variables(&mut set);
        set.into_iter().collect()
    }

    fn collect_variables(&self, set: &mut BTreeSet<usize>) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(i) => {
                set.insert(*i);
            }
            Expr::Unary(_, a) => a.collect_variables(set),
            Expr::Binary(_, a, b) => {
                a.collect_variables(set);
                b.collect_variables(set);
            }
            Expr::If(c, a, b) => {
                c.collect_variables(set);
                a.collect_variables(set);
                b.collect_variables(set);
            }
        }
    }

    /// Number of constant leaves.
    pub fn constant_count(&self) -> usize {
        match self {
            Expr::Const(_) => 1,
            Expr::Var(_) => 0,
            Expr::Unary(_, a) => a.constant_count(),
            Expr::Binary(_, a, b) => a.constant_count() + b.constant_count(),
            Expr::If(c, a, b) => c.constant_count() + a.constant_count() + b.constant_count(),
        }
    }

    pub fn complexity(&self) -> Complexity {
        Complexity {
            size: self.size(),
            depth: self.depth(),
            variables: self.variables(),
            constants: self.constant_count(),
        }
    }

    /// Whether every node is finite-valued constant-wise (no NaN or infinite literal).
    pub fn has_finite_constants(&self) -> bool {
        match self {
            Expr::Const(v) => v.is_finite(),
            Expr::Var(_) => true,
            Expr::Unary(_, a) => a.has_finite_constants(),
            Expr::Binary(_, a, b) => a.has_finite_constants() && b.has_finite_constants(),
            Expr::If(c, a, b) => c.has_finite_constants() && a.has_finite_constants() && b.has_finite_constants(),
        }
    }
}

impl Cond {
    pub fn size(&self) -> usize {
        match self {
            Cond::Cmp(_, a, b) => 1 + a.size() + b.size(),
            Cond::And(a, b) | Cond::Or(a, b) => 1 + a.size() + b.size(),
            Cond::Not(a) => 1 + a.size(),
        }
    }

    pub fn depth(&self) -> usize {
        match self {
            Cond::Cmp(_, a, b) => 1 + a.depth().max(b.depth()),
            Cond::And(a, b) | Cond::Or(a, b) => 1 + a.depth().max(b.depth()),
            Cond::Not(a) => 1 + a.depth(),
        }
    }

    fn collect_variables(&self, set: &mut BTreeSet<usize>) {
        match self {
            Cond::Cmp(_, a, b) => {
                a.collect_variables(set);
                b.collect_variables(set);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.collect_variables(set);
                b.collect_variables(set);
            }
            Cond::Not(a) => a.collect_variables(set),
        }
    }

    fn constant_count(&self) -> usize {
        match self {
            Cond::Cmp(_, a, b) => a.constant_count() + b.constant_count(),
            Cond::And(a, b) | Cond::Or(a, b) => a.constant_count() + b.constant_count(),
            Cond::Not(a) => a.constant_count(),
        }
    }

    fn has_finite_constants(&self) -> bool {
        match self {
            Cond::Cmp(_, a, b) => a.has_finite_constants() && b.has_finite_constants(),
            Cond::And(a, b) | Cond::Or(a, b) => a.has_finite_constants() && b.has_finite_constants(),
            Cond::Not(a) => a.has_finite_constants(),
        }
    }
}

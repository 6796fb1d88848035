"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%0: tensor<i32>, %1: tensor<3xf32>):
    %2 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %3:3 = "stablehlo.while"(%0, %2, %1) ({
    ^bb0(%4: tensor<i32>, %5: tensor<i32>, %6: tensor<3xf32>):
      %7 = "stablehlo.compare"(%5, %4) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%7) : (tensor<i1>) -> ()
    }, {
    ^bb0(%8: tensor<i32>, %9: tensor<i32>, %10: tensor<3xf32>):
      "stablehlo.custom_call"(%10) {api_version = 1 : i32, backend_config = "loop_tap", call_target_name = "jaxsh.id_tap", has_side_effect = true} : (tensor<3xf32>) -> ()
      %11 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %12 = "stablehlo.add"(%9, %11) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %13 = "stablehlo.constant"() {value = dense<0x3FC00000> : tensor<f32>} : () -> tensor<f32>
      %14 = "stablehlo.broadcast_in_dim"(%13) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
      %15 = "stablehlo.multiply"(%10, %14) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%8, %12, %15) : (tensor<i32>, tensor<i32>, tensor<3xf32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<i32>, tensor<3xf32>)
    "func.return"(%3#1, %3#2) : (tensor<i32>, tensor<3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = "jit_while"} : () -> ()
